import { banner } from "#db/schema/site.ts";
import { crudService } from "../crud/service.ts";

export const bannerService = crudService({
  table: banner,
  defaults: { url: "", type: 0, sort: 0, enable: true, description: "" },
});
