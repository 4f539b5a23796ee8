import { desc, inArray } from "drizzle-orm";
import { advertisement } from "#db/schema/site.ts";
import { badRequest } from "#src/lib/errors.ts";
import { crudService } from "../crud/service.ts";

export const advertisementService = crudService({
  table: advertisement,
  defaults: { enable: true, start_time: null, end_time: null, remark: "" },
  check(row) {
    const s = row.start_time as number | null;
    const e = row.end_time as number | null;
    if (s && e && e <= s) throw badRequest("结束时间必须晚于开始时间");
  },
});

/** Admin list: every ad, optionally of some positions, newest first. */
export function listAllAds(q: { positions: string[]; page: number; size: number }) {
  const { total, rows } = advertisementService.list({
    where: [q.positions.length ? inArray(advertisement.position, q.positions) : undefined],
    order: [desc(advertisement.id)],
    page: q.page, size: q.size,
  });
  return { total, advertisement: rows };
}
