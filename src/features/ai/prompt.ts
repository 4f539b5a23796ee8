import { fold } from "#src/features/search/text.ts";
import type { ChatTurn } from "./llm/client.ts";
import type { RetrievedPage } from "./retrieve.ts";
import { cutToTokens, estimateTokens } from "./tokens.ts";

// The prompt: the system prompt, the retrieved pages numbered [1]…[k] within the context budget,
// the latest turns of the conversation with what budget is left, then the question.

export interface PromptInput {
  systemPrompt: string;
  sitename: string;
  question: string;
  pages: RetrievedPage[];
  history: { question: string; answer: string }[];
  /** estimated tokens for pages + history */
  budget: number;
  /** words of the search query, to centre long pages' excerpts on them */
  words: string[];
}

export interface Prompt { messages: ChatTurn[]; /** the pages that made it into the prompt, in [n] order */ used: RetrievedPage[] }

// Pages get most of the budget; the conversation so far the rest.
const PAGE_SHARE = 0.75;

/** About `tokens` of the page around where the query words occur most (its start if none do). */
export function excerpt(text: string, words: string[], tokens: number): string {
  const clean = text.replace(/[ \t\f\v]+/g, " ").replace(/\n{3,}/g, "\n\n").trim();
  if (estimateTokens(clean) <= tokens) return clean;
  const folded = fold(clean);
  const positions = words.flatMap((w) => {
    const f = fold(w);
    const at: number[] = [];
    for (let i = folded.indexOf(f); f && i !== -1 && at.length < 50; i = folded.indexOf(f, i + f.length)) at.push(i);
    return at;
  }).sort((a, b) => a - b);
  const width = cutToTokens(clean, tokens).length;
  let best = 0;
  let bestCount = -1;
  for (const p of positions) {
    const start = Math.max(0, p - Math.floor(width / 4));
    const n = positions.filter((x) => x >= start && x < start + width).length;
    if (n > bestCount) {
      bestCount = n;
      best = start;
    }
  }
  const body = cutToTokens(clean.slice(best), tokens);
  return `${best > 0 ? "…" : ""}${body}${best + body.length < clean.length ? "…" : ""}`;
}

export function buildPrompt(p: PromptInput): Prompt {
  const pageBudget = Math.floor(p.budget * (p.history.length ? PAGE_SHARE : 1));
  const used: RetrievedPage[] = [];
  const blocks: string[] = [];
  let spent = 0;
  for (const page of p.pages) {
    const left = pageBudget - spent;
    // Each remaining page gets an equal share of what is left, at least enough to be useful.
    const share = Math.floor(left / (p.pages.length - used.length));
    if (share < 60) break;
    const head = `[${used.length + 1}] 《${page.title}》第 ${page.page} 页：\n`;
    const text = excerpt(page.text, p.words, share - estimateTokens(head));
    if (!text) continue;
    blocks.push(head + text);
    spent += estimateTokens(head + text);
    used.push(page);
  }
  const context = blocks.length
    ? `以下是从文库中检索到的文档片段，编号即引用标记：\n\n${blocks.join("\n\n")}`
    : "文库中没有检索到与问题相关的文档片段。请如实告诉用户没有找到相关资料，不要编造引用。";
  const messages: ChatTurn[] = [{ role: "system", content: `${p.systemPrompt.replaceAll("{sitename}", p.sitename)}\n\n${context}` }];
  // Newest turns first until the budget is spent, then restored to their order.
  let left = p.budget - spent;
  const turns: ChatTurn[][] = [];
  for (const h of [...p.history].reverse()) {
    const cost = estimateTokens(h.question) + estimateTokens(h.answer);
    if (cost > left) break;
    left -= cost;
    // Old answers cite other numbers: their marks would point at the wrong pages now.
    turns.unshift([{ role: "user", content: h.question }, { role: "assistant", content: h.answer.replace(/\[\d{1,2}\]/g, "") }]);
  }
  messages.push(...turns.flat(), { role: "user", content: p.question });
  return { messages, used };
}
