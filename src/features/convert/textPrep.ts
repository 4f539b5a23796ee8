import { headTexts, indexTextWith } from "#src/features/search/text.ts";
import { extractKeywords, summarize } from "./keywords.ts";
import type { TextJob, TextResult } from "./textWork.ts";

// A converted document's text work: description and keywords (TF-IDF over jieba words) and the
// search index's segmentation of every page. Run by textWorker.ts in a Worker thread, or here on the
// event loop when no thread can be had (textWork.ts).

export function prepareTextHere({ texts, doc, settings }: Omit<TextJob, "id">): TextResult {
  const all = texts.join("\n");
  const description = summarize(all);
  const keywords = extractKeywords(all);
  // Row 0 as applySuccess will write it: the document's own words, or the ones found here.
  const head = headTexts({
    title: doc.title,
    keywords: doc.keywords.trim() ? doc.keywords : keywords.join(","),
    description: doc.description.trim() ? doc.description : description,
  });
  return {
    description, keywords,
    pre: { settings, head, headIndex: head.map((t) => indexTextWith(t, settings)), bodies: texts.map((t) => indexTextWith(t, settings)) },
  };
}
