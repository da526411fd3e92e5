import type { EstimateResponse, FacetField, FacetValue, FilterLists, FilterName } from '../api/types.ts';
import { formatEstimate, formatFacetCount } from '../search/estimate-format.ts';
import { h, plural } from './dom.ts';

/** Each facet and the filter its values feed (the same labels the filter compares, server side). */
export const FACET_FILTERS: readonly {
  readonly field: FacetField;
  readonly filter: FilterName;
  readonly label: string;
}[] = [
  { field: 'language', filter: 'languages', label: 'Language' },
  { field: 'topic', filter: 'topics', label: 'Topic' },
  // The server lists a source by its site name (host name where none) and counts what the sources filter selects (issue 29 bug 4).
  { field: 'source', filter: 'sources', label: 'Source (site name; host name where none)' },
  { field: 'country', filter: 'countries', label: 'Publisher country' },
  { field: 'lang', filter: 'commonlingua_languages', label: 'Second-identifier language' },
];

/** Values of a facet shown before "n more". */
const FACET_VALUES_SHOWN = 6;

export interface FacetViewOptions {
  readonly filters: FilterLists;
  /** Filters the release cannot serve: their facets are not offered. */
  readonly usable: (filter: FilterName) => boolean;
  /** A value was clicked: add it to (or, when already selected, remove it from) that filter. */
  readonly toggle: (filter: FilterName, value: string) => void;
}

/** Whether `value` is already one of the filter's values (compared as the server does, ignoring case). */
function selected(values: readonly string[], value: string): boolean {
  const key = value.normalize('NFKC').toLowerCase();
  return values.some((v) => v.normalize('NFKC').toLowerCase() === key);
}

function facetButton(v: FacetValue, exact: boolean, active: boolean, onClick: () => void): HTMLElement {
  const count = formatFacetCount(v.occurrences, exact);
  return h(
    'li',
    {},
    h(
      'button',
      {
        type: 'button',
        class: 'facet-value',
        'aria-pressed': String(active),
        onclick: onClick,
        title: `${active ? 'Remove' : 'Add'} the filter ${v.value} (${count} occurrences in ${formatFacetCount(v.articles, exact)} articles)`,
      },
      h('span', { class: 'facet-label' }, v.value),
      h('span', { class: 'facet-count' }, count),
    ),
  );
}

/**
 * The facets of an estimate: per field the top values among matching articles with their occurrences; a value is
 * a toggle that adds it to the filters. Sampled counts are marked "≈"; the heading says what they rest on.
 */
export function renderFacets(est: EstimateResponse, opts: FacetViewOptions): HTMLElement {
  const exact = est.mode === 'exact';
  const groups = FACET_FILTERS.filter((f) => opts.usable(f.filter) && (est.facets[f.field]?.length ?? 0) > 0).map(
    (f) => {
      const values = est.facets[f.field] ?? [];
      const button = (v: FacetValue) =>
        facetButton(v, exact, selected(opts.filters[f.filter], v.value), () => opts.toggle(f.filter, v.value));
      // The first values in view, the rest one click away, so the cards are not pushed below a long list of sources.
      const rest = values.slice(FACET_VALUES_SHOWN);
      return h(
        'section',
        { class: 'facet-group', 'data-facet': f.field },
        h('h3', {}, f.label),
        h('ul', {}, ...values.slice(0, FACET_VALUES_SHOWN).map(button)),
        rest.length === 0
          ? null
          : h(
              'details',
              { class: 'facet-more' },
              h('summary', {}, `${rest.length} more`),
              h('ul', {}, ...rest.map(button)),
            ),
      );
    },
  );
  const basis = exact
    ? `Exact counts over all ${plural(est.total_occurrences, 'occurrence', 'occurrences')}.`
    : `Estimated from a random sample of ${plural(est.resolved_ranks, 'occurrence', 'occurrences')} of ${formatEstimate({ value: est.total_occurrences, low: est.total_occurrences, high: est.total_occurrences })} (95% intervals).`;
  return h(
    'div',
    { class: 'facets-inner' },
    h('h2', { class: 'facets-heading' }, 'Narrow by'),
    h(
      'p',
      { class: 'muted facets-basis' },
      `${basis} Choose a value to add it to the filters; choose it again to remove it.`,
    ),
    groups.length > 0
      ? h('div', { class: 'facet-groups' }, ...groups)
      : h('p', { class: 'muted' }, 'No metadata values among the matching articles.'),
  );
}

/** The filters with `value` added to (or removed from) `filter`. */
export function toggleFilterValue(filters: FilterLists, filter: FilterName, value: string): FilterLists {
  const values = filters[filter];
  const next = selected(values, value)
    ? values.filter((v) => v.normalize('NFKC').toLowerCase() !== value.normalize('NFKC').toLowerCase())
    : [...values, value];
  return { ...filters, [filter]: next };
}
