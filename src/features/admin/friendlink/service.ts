import { friendlink } from "#db/schema/site.ts";
import { crudService } from "../crud/service.ts";

export const friendlinkService = crudService({
  table: friendlink,
  defaults: { description: "", sort: 0, enable: true },
});
