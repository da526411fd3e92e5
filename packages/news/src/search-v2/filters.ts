import type { FilterFields } from '../release/types.ts';
import { V2Error } from './errors.ts';
import { createFilterKeyCache, filterKey } from './filter-key.ts';
import type { DocumentFilters } from './types.ts';

/** A compiled set of metadata filters: true when a document passes every non-empty list. */
export type DocumentPredicate = (metadata: FilterFields) => boolean;

type FilterName = keyof DocumentFilters;

/** Which metadata labels each filter list is compared with (spec §4, documents). */
const FILTER_LABELS: Readonly<Record<FilterName, (m: FilterFields) => readonly (string | null)[]>> = {
  languages: (m) => [m.language],
  commonlingua_languages: (m) => [m.lang],
  // A record can carry several topic labels joined with `;` (e.g. Reuters `grain;wheat`): each is a label.
  topics: (m) => (m.iptc_topic === null ? [] : m.iptc_topic.split(';').map((t) => t.trim())),
  sources: (m) => [m.hostname, m.sitename],
  countries: (m) => [m.country],
};

const FILTER_NAMES = Object.keys(FILTER_LABELS) as FilterName[];

// Shared across requests: metadata labels repeat across documents and calls.
const metadataKey = createFilterKeyCache();

/**
 * Compiles filter lists into a predicate. Values within one list combine with OR, lists combine with AND,
 * an absent or empty list is no filter; both sides are compared by `filterKey` (NFKC + full case folding).
 * Throws `country_attribution_unavailable` when `countries` is used on an index without an attribution table.
 */
export function compileFilters(
  filters: DocumentFilters,
  index: { readonly hasCountryAttribution: boolean },
): DocumentPredicate {
  if ((filters.countries?.length ?? 0) > 0 && !index.hasCountryAttribution) {
    throw new V2Error(
      'country_attribution_unavailable',
      'this release has no country attribution table, so the countries filter cannot be applied; drop it or ask the operator to build the release with --countries',
    );
  }
  const active = FILTER_NAMES.flatMap((name) => {
    const values = filters[name];
    if (values === undefined || values === null || values.length === 0) return [];
    return [{ labels: FILTER_LABELS[name], wanted: new Set(values.map(filterKey)) }];
  });
  if (active.length === 0) return () => true;
  return (metadata) =>
    active.every(({ labels, wanted }) =>
      labels(metadata).some((label) => label !== null && wanted.has(metadataKey(label))),
    );
}

/** True when no list of `filters` is in effect. */
export function hasNoFilter(filters: DocumentFilters): boolean {
  return FILTER_NAMES.every((name) => (filters[name]?.length ?? 0) === 0);
}
