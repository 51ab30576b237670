/**
 * The seam between recall and the optional vector signal: recall asks for the memories nearest to
 * its query (by the query's text, embedded by the configured endpoint, or by a vector the caller
 * sent) and blends them with the lexical and graph signals. Without vectors configured there is no
 * matcher and recall runs on the other two signals.
 */
export interface VectorMatch {
  memoryId: string;
  /** Cosine similarity mapped to 0..1 (1 = same direction). */
  similarity: number;
}

interface VectorQuery {
  text: string | null;
  embedding: readonly number[] | null;
}

export type VectorMatcher = (
  workspace: string,
  query: VectorQuery,
  limit: number,
  signal?: AbortSignal,
) => Promise<VectorMatch[]>;
