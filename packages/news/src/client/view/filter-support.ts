import { FILTER_NAMES, type FilterName, type FilterSupport, type InfoResponse } from '../api/types.ts';
import { byId, h } from './dom.ts';

/** Why a filter is off, in a reader's words (no build flags, no field names). */
const REASONS: Readonly<Record<FilterName, string>> = {
  languages: 'No article in this corpus has a language label, so this filter would find nothing.',
  commonlingua_languages:
    'No article in this corpus has a second-identifier language, so this filter would find nothing.',
  topics: 'No article in this corpus has a topic, so this filter would find nothing.',
  sources: 'No article in this corpus names its site, so this filter would find nothing.',
  countries: 'This corpus has no publisher-country information, so articles cannot be filtered by country.',
};

function reasonFor(name: FilterName, support: FilterSupport): string {
  return support.reason === 'no_attribution_table' || name !== 'countries'
    ? REASONS[name]
    : 'No article in this corpus has a publisher country, so this filter would find nothing.';
}

/** Filters a search answer refused on this page (the release cannot apply them), whatever info said before. */
const refused = new Set<FilterName>();

/**
 * Marks a filter the gateway refused: its box stays off for the page. Why here: info and the first search run at
 * once, and an info answer arriving after the refusal turned the box back on (seen in CI).
 */
export function markFilterRefused(name: FilterName): void {
  refused.add(name);
  byId<HTMLInputElement>(name).disabled = true;
}

/**
 * Disables the filter boxes the release cannot serve (info's `filters`, and those a search was refused), each with
 * its reason under the box, so no reader filters everything away. A gateway without the field leaves every box on.
 */
export function applyFilterSupport(info: Pick<InfoResponse, 'filters'>): void {
  for (const name of FILTER_NAMES) {
    const support = info.filters?.[name];
    const input = byId<HTMLInputElement>(name);
    const noteId = `${name}-unavailable`;
    document.getElementById(noteId)?.remove();
    input.disabled = refused.has(name) || (support !== undefined && !support.available);
    if (support === undefined || support.available) {
      input.removeAttribute('aria-describedby');
      continue;
    }
    input.closest('label')?.append(h('span', { id: noteId, class: 'filter-note' }, reasonFor(name, support)));
    input.setAttribute('aria-describedby', noteId);
  }
}

/** Whether the page may send this filter (a disabled box is never part of a search). */
export function filterEnabled(name: FilterName): boolean {
  return !byId<HTMLInputElement>(name).disabled;
}
