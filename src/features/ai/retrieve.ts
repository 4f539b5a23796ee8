import { embeddingActive } from "#src/features/embedding/vectors.ts";
import { log } from "#src/http/requestLog.ts";
import { hybridRetrieve } from "./retrieval/hybrid.ts";
import { keywordRetrieve } from "./retrieval/keyword.ts";

// Retrieval for the AI (design.md §6): pages, because a citation is a document + a page. With
// embeddings off (or no active embedding space) it is BM25 over the full-text index alone
// (retrieval/keyword.ts); with them on, BM25 and vector neighbours fused by reciprocal rank
// (retrieval/hybrid.ts). Either way only pages the asking user may read (retrieval/access.ts).

export interface RetrievalScope {
  /** the asking user: decides which pages beyond the preview they may read (own or bought); 0 anonymous */
  userId: number;
  /** only these documents (a topic's scope); empty or absent: the whole library */
  documentIds?: number[];
  /** how many pages at most */
  limit: number;
  /** the asker went away: outside calls (embedding, rerank) stop waiting */
  signal?: AbortSignal;
}

export interface RetrievedPage { document_id: number; uuid: string; title: string; page: number; text: string; score: number }

/**
 * The pages that best answer `query`, best first, at most scope.limit, at most three per
 * document. Scores are BM25 (keyword only), fused reciprocal-rank scores, or the reranker's
 * relevance: comparable within one answer, not across modes.
 */
export async function retrieve(query: string, scope: RetrievalScope): Promise<RetrievedPage[]> {
  if (!vectorsOn()) return keywordRetrieve(query, scope);
  return hybridRetrieve(query, scope);
}

function vectorsOn(): boolean {
  try {
    return embeddingActive();
  } catch (err) {
    // A broken embedding setup must not take the chat down with it: keywords still answer.
    log("warn", "embedding state unreadable, keyword retrieval only", { error: String((err as Error)?.message ?? err) });
    return false;
  }
}
