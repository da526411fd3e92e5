/**
 * The metadata filters v2 info reports on, in response order: the one list `FilterSupportMap` is keyed by, so code
 * that walks the filters (merging workers' answers, the response schema) cannot miss or misspell one.
 */
export const FILTER_NAMES = ['languages', 'commonlingua_languages', 'topics', 'sources', 'countries'] as const;
export type FilterName = (typeof FILTER_NAMES)[number];
