import { asc, count, eq } from "drizzle-orm";
import { getDb } from "#db/client.ts";
import { document, language } from "#db/schema/documents.ts";
import { crudService } from "#src/features/admin/crud/service.ts";
import { badRequest, conflict } from "#src/lib/errors.ts";

export type LanguageRow = typeof language.$inferSelect;
export const LANGUAGE_UNUSABLE = "文档语言不存在或未启用";

export const enabledLanguages = (): Pick<LanguageRow, "code" | "name">[] =>
  getDb().select({ code: language.code, name: language.name }).from(language).where(eq(language.enable, true)).orderBy(asc(language.sort), asc(language.id)).all();

export function assertLanguage(code: string) {
  const row = getDb().select({ enable: language.enable }).from(language).where(eq(language.code, code)).get();
  if (!row?.enable) throw badRequest(LANGUAGE_UNUSABLE);
}

/** 中文 when enabled, else the first enabled language (documents always carry one). */
export function defaultLanguage(): string {
  const list = enabledLanguages();
  return list.find((l) => l.code === "zh")?.code ?? list[0]?.code ?? "zh";
}

const usedBy = (code: string) => getDb().select({ n: count() }).from(document).where(eq(document.language, code)).get()!.n;

export const languageService = crudService({
  table: language,
  defaults: { enable: true, sort: 0 },
  check(row, id) {
    const taken = getDb().select({ id: language.id }).from(language).where(eq(language.code, String(row.code))).get();
    if (taken && taken.id !== id) throw conflict("语言代码已存在");
    const before = id === null ? undefined : getDb().select({ code: language.code }).from(language).where(eq(language.id, id)).get();
    if (before && before.code !== row.code && usedBy(before.code)) throw badRequest("已有文档使用该语言代码，不能修改代码；可以修改名称");
  },
  beforeDelete(ids) {
    for (const id of ids) {
      const row = getDb().select({ code: language.code, name: language.name }).from(language).where(eq(language.id, id)).get()!;
      const used = usedBy(row.code);
      if (used) throw badRequest(`「${row.name}」已有 ${used} 篇文档使用，不能删除；可以改为停用`);
    }
  },
});

export function listLanguages(q: { admin: boolean; enable?: boolean; page: number; size: number }) {
  if (!q.admin) {
    const rows = enabledLanguages();
    return { total: rows.length, language: rows };
  }
  const { total, rows } = languageService.list({ where: [q.enable === undefined ? undefined : eq(language.enable, q.enable)], page: q.page, size: q.size });
  return { total, language: rows };
}
