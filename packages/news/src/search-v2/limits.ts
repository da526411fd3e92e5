/** Bounds of single request fields shared by v1 and v2 (the spec leaves v2's open; v2 reuses v1's). */
export const REQUEST_BOUNDS = {
  queryMaxLength: 10_000,
  indexMaxLength: 100,
  indexPattern: '^[a-z0-9_]+$',
  yearMin: 1900,
  yearMax: 2200,
} as const;

/** Spec §8 and the design doc's v2 limits, in one place so the request schemas and the domain agree. */
export const V2_LIMITS = {
  /** Ranks one `occurrences` call resolves. */
  occurrencesRanks: 50_000,
  /** Ranks one `documents` call resolves (each distinct document carries its metadata). */
  documentsRanks: 1_000,
  /** Ranks one `contexts` call resolves (a concordance page). */
  contextsRanks: 1_000,
  /** Concordance context bytes on each side of the match. */
  contextBytesDefault: 60,
  contextBytesMax: 200,
  /** Largest interval `estimate` resolves rank by rank (an exact answer); above it, a uniform sample. */
  estimateExactRanks: 20_000,
  /** Ranks `estimate` samples by default, and at most. */
  estimateSampleDefault: 4_000,
  estimateSampleMax: 20_000,
  /** Values listed per facet. */
  facetValues: 20,
  /** Document references one `metadata` call resolves. */
  metadataReferences: 1_000,
  /** Largest article `get_doc` returns with `full_text: true`, in bytes (1 MiB). */
  fullTextBytes: 1_048_576,
  /** Largest encoded `metadata` response, in bytes (16 MiB); over it the client retries with fewer references. */
  metadataResponseBytes: 16 * 1_048_576,
  /** get_doc context bytes on each side of the match. */
  maxCtxLenMin: 1,
  maxCtxLenMax: 10_000,
  maxCtxLenDefault: 1_000,
} as const;
