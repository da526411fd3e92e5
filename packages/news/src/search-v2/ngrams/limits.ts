/** Bounds of the word analyses (ngrams, collocations), so the request schemas, the domain and the docs agree. */
export const ANALYSIS_LIMITS = {
  /** Words in one continuation. */
  ngramsWordsMax: 3,
  /** Continuations listed by default, and at most. */
  ngramsListDefault: 50,
  ngramsListMax: 1_000,
  /** Largest number of a shard's occurrences `ngrams` reads one by one (exact); above it, a seeded sample. */
  ngramsExactRanks: 20_000,
  /** Occurrences `ngrams` samples from a larger shard. */
  ngramsSampleSize: 5_000,
  /** Collocation window: words on each side by default, and at most. */
  windowDefault: 5,
  windowMax: 10,
  /** Largest number of a shard's occurrences `collocations` reads one by one (exact); above it, a seeded sample. */
  collocationsExactRanks: 50_000,
  /** Occurrences `collocations` samples from a larger shard. */
  collocationsSampleSize: 10_000,
  /** Collocates listed by default, and at most. */
  collocatesDefault: 50,
  collocatesMax: 1_000,
} as const;
