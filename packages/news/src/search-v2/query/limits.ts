/** The work bounds of one request (a test passes smaller ones to reach them on small data). */
export interface QueryWorkLimits {
  readonly locatedOccurrences: number;
  readonly verifiedBytes: number;
}

/** Bounds of one `search` request (documented in the API reference and search-v2 DESIGN.md, "Query language"). */
export const QUERY_LIMITS = {
  /** Occurrences of the driving terms located to articles, all shards together; past it the answer is sampled. */
  locatedOccurrences: 2_000_000,
  /**
   * Text bytes of candidate articles read to verify the query, all shards together (256 MiB); past it the answer is
   * sampled, and a sample whose distinct articles hold more is refused: 422 `query_too_expensive`.
   */
  verifiedBytes: 256 * 1_048_576,
  /** Distinct words one `word*` term may stand for in the matching articles; past it 422 `query_too_complex`. */
  expansions: 1_000,
  /** Terms in one query. */
  terms: 32,
  /** Articles on the first page, by default and at most. */
  pageDefault: 10,
  pageMax: 100,
  /** Driver occurrences drawn past the exact bound, by default and at most. */
  sampleDefault: 2_000,
  sampleMax: 20_000,
  /** Context bytes each side of an article's first occurrence. */
  contextBytes: 60,
} as const;
