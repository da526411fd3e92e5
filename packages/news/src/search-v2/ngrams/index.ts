/** Word continuations of a query (ngrams), and the occurrence sampling and word windows the collocations share. */
export { ngrams, combineNgrams, type NgramsRequestWire, type NgramsResult } from './ngrams.ts';
export { ANALYSIS_LIMITS } from './limits.ts';
