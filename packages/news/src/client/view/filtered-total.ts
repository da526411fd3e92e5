import type { EstimateResponse } from '../api/types.ts';
import { formatEstimate } from '../search/estimate-format.ts';
import { hasFilters, type SearchState } from '../search/url-state.ts';
import { formatCount, replaceChildren } from './dom.ts';
import { quotedQuery } from './quoted-query.ts';

/** What the total card says once the estimate is in: the filtered count, exact or "≈ … ± …". */
export interface FilteredTotal {
  readonly total: string;
  readonly label: string;
  readonly note: string;
}

/**
 * The total of a filtered search: matching occurrences (exact or estimated with its interval), in how many
 * articles, out of how many before the filters.
 * @example filteredTotal(est, 'oil').total // '≈ 12,300 ± 400'
 */
export function filteredTotal(est: EstimateResponse, query: string): FilteredTotal {
  const occ = est.matching_occurrences;
  const one = occ.value === 1 && occ.low === occ.high;
  return {
    total: formatEstimate(occ),
    label: `${one ? 'occurrence' : 'occurrences'} of ${quotedQuery(query)} in articles matching the filters`,
    note:
      `In ${formatEstimate(est.matching_articles)} ${est.matching_articles.value === 1 ? 'article' : 'articles'}; ` +
      `${formatCount(est.total_occurrences)} before the filters` +
      `${est.mode === 'exact' ? '' : ` (estimated from ${formatCount(est.resolved_ranks)} sampled occurrences, 95% interval)`}.`,
  };
}

/** The page parts a filtered estimate updates (the timeline takes the estimate's periods itself). */
export interface EstimateTargets {
  readonly total: HTMLElement;
  readonly totalLabel: HTMLElement;
  readonly totalNote: HTMLElement;
}

/** With filters, the total and its note show the occurrences in articles matching the filters. */
export function showEstimate(est: EstimateResponse, state: SearchState, release: string, to: EstimateTargets): void {
  if (!hasFilters(state.filters)) return;
  const t = filteredTotal(est, state.query);
  to.total.textContent = t.total;
  to.totalLabel.textContent = t.label;
  replaceChildren(to.totalNote, `${t.note} Release ${release}.`);
}
