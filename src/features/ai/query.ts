import { extractKeywords } from "#src/features/convert/keywords.ts";

// The standalone search query of a question. Follow-ups ("它的公式呢？", "第二点展开说说") name
// nothing to search for; they are resolved against the topic's previous question by carrying its
// keywords over. This is done with words, not a second model call, so the first token is not
// delayed by a whole extra round trip to the provider (decision log, 2026-11-24).

// Words that point back at something said before.
const ANAPHORA = /它|他们|她们|它们|这个|那个|这些|那些|这篇|该|其中|上述|上面|前面|刚才|以上|此|继续|展开|详细|再|还有|呢[？?]?$|为什么|怎么办/;
// Question words and fillers that never help retrieval.
const FILLER = /请问|请|帮我|帮忙|一下|什么|怎么|怎样|如何|哪些|哪个|是否|能否|可以|吗|呢|吧|的|了|是|有|和|与|及|我|你|告诉|介绍|总结|解释|说明|分析|给出|列出/g;

/** The question's own search words: TF-IDF keywords, else what is left after dropping fillers. */
// TF-IDF ranks these high in a short question, yet they name nothing to look for.
const QUESTION_WORDS = new Set(["哪些", "什么", "怎么", "怎样", "如何", "为什么", "是否", "可以", "请问", "一下", "有没有", "区别", "哪里", "多少", "哪个", "介绍", "总结", "内容", "问题"]);

export function keywordsOf(text: string, count = 6): string[] {
  const kws = extractKeywords(text, count + 3).filter((k) => !QUESTION_WORDS.has(k)).slice(0, count);
  if (kws.length) return kws;
  const rest = text.replace(FILLER, " ").replace(/[\p{P}\p{S}]/gu, " ").trim();
  return rest ? rest.split(/\s+/).slice(0, count) : [];
}

/** The query retrieval runs for `question`, given earlier questions of the topic (oldest first). */
export function standaloneQuery(question: string, earlier: string[]): string {
  const own = keywordsOf(question);
  const prev = earlier.at(-1);
  if (prev && (own.length < 2 || ANAPHORA.test(question))) {
    const carried = keywordsOf(prev, 3).filter((k) => !own.includes(k));
    return [...carried, ...own].join(" ");
  }
  return own.length ? own.join(" ") : question.slice(0, 64);
}
