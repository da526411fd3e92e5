import { FILTER_NAMES, type FilterLists, type FilterName } from '../api/types.ts';
import { DEFAULT_MATCHING, parseMatching, writeMatching, type MatchingOptions } from './matching-options.ts';

/** Everything that defines a search; it lives in the URL so a search can be bookmarked, shared and reloaded. */
export interface SearchState {
  readonly query: string;
  readonly index: string;
  readonly yearMin: number | null;
  readonly yearMax: number | null;
  readonly filters: FilterLists;
  readonly matching: MatchingOptions;
}

export const DEFAULT_INDEX = 'news';

export const EMPTY_FILTERS: FilterLists = Object.freeze({
  languages: [],
  commonlingua_languages: [],
  topics: [],
  sources: [],
  countries: [],
});

export const EMPTY_STATE: SearchState = Object.freeze({
  query: '',
  index: DEFAULT_INDEX,
  yearMin: null,
  yearMax: null,
  filters: EMPTY_FILTERS,
  matching: DEFAULT_MATCHING,
});

/**
 * Splits a filter box's text into values: separated by semicolons, trimmed, empty and repeated values dropped.
 * @example splitFilterValues(' de; en;;de ') // ['de', 'en']
 */
export function splitFilterValues(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split(';')) {
    const v = raw.trim();
    if (v !== '' && !out.includes(v)) out.push(v);
  }
  return out;
}

export function joinFilterValues(values: readonly string[]): string {
  return values.join('; ');
}

/** A four-digit crawl year inside the API's bounds, else null (an empty or bad box means "no bound"). */
export function parseYear(text: string | null | undefined): number | null {
  if (text === null || text === undefined) return null;
  const t = text.trim();
  if (!/^\d{4}$/.test(t)) return null;
  const n = Number(t);
  return n >= 1900 && n <= 2200 ? n : null;
}

/** Reads a search from a URL query string (`?q=…&index=…&year_min=…&languages=de;en`). Unknown keys are ignored. */
export function parseSearchState(search: string): SearchState {
  const p = new URLSearchParams(search);
  const filters = Object.fromEntries(
    FILTER_NAMES.map((name) => [name, splitFilterValues(p.get(name) ?? '')]),
  ) as unknown as FilterLists;
  const index = p.get('index')?.trim() ?? '';
  return {
    query: p.get('q') ?? '',
    index: /^[a-z0-9_]{1,100}$/.test(index) ? index : DEFAULT_INDEX,
    yearMin: parseYear(p.get('year_min')),
    yearMax: parseYear(p.get('year_max')),
    filters,
    matching: parseMatching(p),
  };
}

/**
 * What a shared link asked for that the page cannot use, in plain words: `parseSearchState` leaves such values
 * out, and the reader is told rather than left to wonder why the search differs from the link.
 * @example linkProblems('?year_min=abcd') // ['The link\'s first crawl year “abcd” is not a four-digit year from 1900 to 2200, so it was left out.']
 */
export function linkProblems(search: string): string[] {
  const p = new URLSearchParams(search);
  const problems: string[] = [];
  for (const [key, which] of [
    ['year_min', 'first'],
    ['year_max', 'last'],
  ] as const) {
    const raw = p.get(key)?.trim() ?? '';
    if (raw !== '' && parseYear(raw) === null) {
      problems.push(
        `The link's ${which} crawl year “${raw}” is not a four-digit year from 1900 to 2200, so it was left out.`,
      );
    }
  }
  const index = p.get('index')?.trim() ?? '';
  if (index !== '' && !/^[a-z0-9_]{1,100}$/.test(index))
    problems.push(`The link's index “${index}” is not an index name, so ${DEFAULT_INDEX} is searched.`);
  const min = parseYear(p.get('year_min'));
  const max = parseYear(p.get('year_max'));
  if (min !== null && max !== null && min > max)
    problems.push(`The link's first crawl year (${min}) is after its last (${max}), so nothing can match.`);
  return problems;
}

/** Writes a search as a URL query string (without `?`); empty parts are left out so links stay short. */
export function serializeSearchState(state: SearchState): string {
  const p = new URLSearchParams();
  if (state.query !== '') p.set('q', state.query);
  if (state.index !== DEFAULT_INDEX) p.set('index', state.index);
  if (state.yearMin !== null) p.set('year_min', String(state.yearMin));
  if (state.yearMax !== null) p.set('year_max', String(state.yearMax));
  for (const name of FILTER_NAMES) {
    const values = state.filters[name];
    if (values.length > 0) p.set(name, values.join(';'));
  }
  writeMatching(p, state.matching);
  return p.toString();
}

export function hasFilters(filters: FilterLists): boolean {
  return FILTER_NAMES.some((n) => filters[n].length > 0);
}

/** Human labels of the filter lists, shared by the form and the exports. */
export const FILTER_LABELS: Readonly<Record<FilterName, string>> = {
  languages: 'Languages',
  commonlingua_languages: 'Second-identifier languages',
  topics: 'Topics',
  sources: 'Sources (hostname or site name)',
  countries: 'Publisher countries',
};
