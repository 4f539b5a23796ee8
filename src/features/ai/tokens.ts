// Token estimates for budgets and for providers that report no usage: about one token per Han
// character and one per four other characters (the tokenisers of Chinese models are close to this).
export function estimateTokens(text: string): number {
  let han = 0;
  for (const ch of text) if (/\p{Script=Han}/u.test(ch)) han++;
  return han + Math.ceil((text.length - han) / 4);
}

/** The longest prefix of `text` within `tokens` (estimated). */
export function cutToTokens(text: string, tokens: number): string {
  if (estimateTokens(text) <= tokens) return text;
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (estimateTokens(text.slice(0, mid)) <= tokens) lo = mid;
    else hi = mid - 1;
  }
  return text.slice(0, lo);
}
