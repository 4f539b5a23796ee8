import { zValidator } from "@hono/zod-validator";
import type { ValidationTargets } from "hono";
import type { ZodType } from "zod";
import { badRequest } from "./errors.ts";

const zh = (s: string | undefined) => !!s && /[\u4e00-\u9fa5]/.test(s);

type Issue = { code?: string; path: PropertyKey[]; message: string; errors?: Issue[][] };

/**
 * The issue to report: the first one, or for a failed union the branch that got furthest (its
 * first issue with the longest path), so `{ document: [{ title: 1 }] }` names document.0.title.
 */
export function reportedIssue(issue: Issue): Issue {
  if (issue.code !== "invalid_union" || !issue.errors?.length || zh(issue.message)) return issue;
  const inner = issue.errors
    .map((branch) => branch[0])
    .filter((x): x is Issue => !!x)
    .map(reportedIssue)
    .sort((a, b) => b.path.length - a.path.length || Number(zh(b.message)) - Number(zh(a.message)))[0];
  return inner ? { ...inner, path: [...issue.path, ...inner.path] } : issue;
}

/** The Chinese message for a failed check: the schema's own Chinese text, else the parameter's path. */
export function issueMessage(issue: Issue | undefined): string {
  if (!issue) return "请求参数格式不正确";
  const i = reportedIssue(issue);
  if (zh(i.message)) return i.message;
  const path = i.path.map(String).join(".");
  return path ? `参数 ${path} 格式不正确` : "请求参数格式不正确";
}

/** zValidator whose failure is a 400 with the first issue's Chinese message (malformed JSON: app.ts). */
export const validate = <T extends ZodType, Target extends keyof ValidationTargets>(target: Target, schema: T) =>
  zValidator(target, schema, (result) => {
    if (!result.success) throw badRequest(issueMessage(result.error.issues[0] as Issue | undefined));
  });
