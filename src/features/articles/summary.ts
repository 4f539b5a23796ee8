import { summarize } from "#src/features/convert/keywords.ts";
import { markdownText } from "./markdown.ts";

/** The summary an article gets when its author writes none: the start of its running text. */
export const summaryOf = (content: string) => summarize(markdownText(content, true), 200);
