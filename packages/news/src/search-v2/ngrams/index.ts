/** The word analyses of a query's occurrences: continuations (ngrams) and, beside them, collocations. */
export { ngrams, combineNgrams, type NgramsRequestWire, type NgramsResult } from './ngrams.ts';
export { ANALYSIS_LIMITS } from './limits.ts';
