import { Jieba, TfIdf } from "@node-rs/jieba";
import { dict, idf } from "@node-rs/jieba/dict";

// The one Chinese segmenter of the process. jieba finds real compound words (编程, 真题) where
// Intl.Segmenter splits them; its dictionary costs ~300 ms and ~38 MB, so it loads on first use,
// and only once however many features use it.
let engine: Jieba | null = null;
let tfidf: TfIdf | null = null;

export const jieba = () => (engine ??= Jieba.withDict(dict));
export const tfIdf = () => (tfidf ??= TfIdf.withDict(idf));

/** Search-mode words of a text: compounds and their parts. */
export const segmentWords = (text: string): string[] => jieba().cutForSearch(text, true);

/** Drops the instance so the next use loads a fresh dictionary (jieba can add words, not forget them). */
export const resetJieba = () => void (engine = null);
