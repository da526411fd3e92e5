import type { FilterableField, ReleaseIndex } from '../release/types.ts';
import type { FilterSupport, FilterSupportMap } from './types.ts';

/** The metadata fields each filter compares (filters.ts); a filter is served when one of them has a value. */
const FILTER_FIELDS = {
  languages: ['language'],
  commonlingua_languages: ['lang'],
  topics: ['iptc_topic'],
  sources: ['hostname', 'sitename'],
  countries: ['country'],
} as const satisfies Record<keyof FilterSupportMap, readonly FilterableField[]>;

const SERVED: FilterSupport = { available: true, reason: null };

/**
 * Which metadata filters can select anything in this index: a filter whose field is empty in every article of
 * every year, or the countries filter without an attribution table, is reported with the reason, so a client
 * can disable it instead of letting a reader filter everything away (issue 13 bug 5). `years`: the crawl years
 * asked about (default: all of the index's).
 */
export function describeFilterSupport(
  index: ReleaseIndex,
  years: readonly string[] = [...new Set(index.shards.map((s) => s.year))],
): FilterSupportMap {
  const filled = (fields: readonly FilterableField[]) =>
    years.some((y) => fields.some((f) => index.metadata(y)?.hasValues(f) === true));
  const support = (fields: readonly FilterableField[]): FilterSupport =>
    filled(fields) ? SERVED : { available: false, reason: 'no_values' };
  return {
    languages: support(FILTER_FIELDS.languages),
    commonlingua_languages: support(FILTER_FIELDS.commonlingua_languages),
    topics: support(FILTER_FIELDS.topics),
    sources: support(FILTER_FIELDS.sources),
    countries: index.hasCountryAttribution
      ? support(FILTER_FIELDS.countries)
      : { available: false, reason: 'no_attribution_table' },
  };
}
