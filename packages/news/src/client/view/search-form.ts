import { FILTER_NAMES } from '../api/types.ts';
import { joinFilterValues, parseYear, splitFilterValues, type SearchState } from '../search/url-state.ts';
import { byId } from './dom.ts';
import { filterEnabled } from './filter-support.ts';

/** Reads the form into a search state (the same rules as the URL: semicolon lists, four-digit years). */
export function readForm(): SearchState {
  // A box the release cannot serve (disabled, see filter-support.ts) is never part of a search.
  const filters = Object.fromEntries(
    FILTER_NAMES.map((n) => [n, filterEnabled(n) ? splitFilterValues(byId<HTMLInputElement>(n).value) : []]),
  );
  return {
    query: byId<HTMLInputElement>('q').value,
    index: byId<HTMLSelectElement>('index').value || 'news',
    yearMin: parseYear(byId<HTMLInputElement>('year_min').value),
    yearMax: parseYear(byId<HTMLInputElement>('year_max').value),
    filters: filters as unknown as SearchState['filters'],
    matching: {
      caseInsensitive: byId<HTMLInputElement>('case_insensitive').checked,
      wholeWord: byId<HTMLInputElement>('whole_word').checked,
    },
  };
}

export function writeForm(state: SearchState): void {
  byId<HTMLInputElement>('q').value = state.query;
  // Only indexes the service has are offered (setIndexes); a link's unknown index is reported, not added.
  byId<HTMLSelectElement>('index').value = state.index;
  byId<HTMLInputElement>('year_min').value = state.yearMin === null ? '' : String(state.yearMin);
  byId<HTMLInputElement>('year_max').value = state.yearMax === null ? '' : String(state.yearMax);
  byId<HTMLInputElement>('case_insensitive').checked = state.matching.caseInsensitive;
  byId<HTMLInputElement>('whole_word').checked = state.matching.wholeWord;
  let active = 0;
  for (const n of FILTER_NAMES) {
    byId<HTMLInputElement>(n).value = joinFilterValues(state.filters[n]);
    if (state.filters[n].length > 0) active += 1;
  }
  const badge = byId('filter-count');
  badge.hidden = active === 0;
  badge.textContent = `${active} active`;
  if (active > 0) byId<HTMLDetailsElement>('filters').open = true;
}

/** Offers the indexes the service has and selects `current`; false when the service has no such index. */
export function setIndexes(names: readonly string[], current: string): boolean {
  const select = byId<HTMLSelectElement>('index');
  select.replaceChildren(...names.map((n) => new Option(n, n)));
  select.value = names.includes(current) ? current : (names[0] ?? '');
  return names.includes(current);
}

/** A problem the form can name before asking the server. */
export function formProblem(state: SearchState): string | null {
  if (state.query === '') return 'Type a phrase to search for.';
  const min = byId<HTMLInputElement>('year_min').value.trim();
  const max = byId<HTMLInputElement>('year_max').value.trim();
  if ((min !== '' && state.yearMin === null) || (max !== '' && state.yearMax === null))
    return 'Crawl years are four-digit years from 1900 to 2200.';
  if (state.yearMin !== null && state.yearMax !== null && state.yearMin > state.yearMax)
    return 'The first crawl year is after the last one.';
  return null;
}
