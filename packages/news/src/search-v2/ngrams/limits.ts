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
  /** `ngrams` draws a sampled shard's occurrences in text order when it holds at most this many text bytes a draw. */
  ngramsTextOrderBytesPerDraw: 4_096,
  /** Collocation window: words on each side by default, and at most. */
  windowDefault: 5,
  windowMax: 10,
  /** Largest number of a shard's occurrences `collocations` reads one by one (exact); above it, a seeded sample. */
  collocationsExactRanks: 50_000,
  /** Occurrences `collocations` samples from a larger shard. */
  collocationsSampleSize: 10_000,
  /** A collocate's own frequency: exact per shard up to this many candidate ranks, else from a sample of `frequencySampleSize`. */
  frequencyExactRanks: 5_000,
  frequencySampleSize: 1_500,
  /** Subcorpus words: per shard, 1 article in `wordsSampleEvery` is segmented, at least `wordsSampleMin`, at most `wordsSampleMax`. */
  wordsSampleEvery: 50,
  wordsSampleMin: 20,
  wordsSampleMax: 200,
  /** Window words considered as candidates: this many times `limit`, the most frequent in the windows. */
  candidatesPerListed: 2,
  /** Collocates listed by default, and at most. */
  collocatesDefault: 50,
  collocatesMax: 200,
} as const;
