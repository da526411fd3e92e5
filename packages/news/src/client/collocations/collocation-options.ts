import type { CollocationSort } from '../api/analysis-types.ts';

/** Which side of each occurrence the window covers. */
export type CollocationWindow = 'both' | 'left' | 'right';

export const COLLOCATION_SORTS: readonly CollocationSort[] = ['frequency', 'log_dice', 'mi', 'log_likelihood'];
export const COLLOCATION_WINDOWS: readonly CollocationWindow[] = ['both', 'left', 'right'];
export const DEFAULT_SORT: CollocationSort = 'log_dice';
export const DEFAULT_WINDOW: CollocationWindow = 'both';
/** Words on each side the window spans (the API's default). */
export const WINDOW_SPAN = 5;
/** Collocates listed. */
export const COLLOCATES_LISTED = 50;

export const SORT_NAMES: Readonly<Record<CollocationSort, string>> = {
  frequency: 'Frequency',
  log_dice: 'logDice',
  mi: 'MI',
  log_likelihood: 'Log-likelihood',
};

export const WINDOW_NAMES: Readonly<Record<CollocationWindow, string>> = {
  both: `${WINDOW_SPAN} words either side`,
  left: `${WINDOW_SPAN} words before`,
  right: `${WINDOW_SPAN} words after`,
};

/** The URL's sort and window (`coll_sort`, `coll_window`); anything else reads as the default. */
export function parseCollocationView(sort: string | null, window: string | null) {
  return {
    sort: COLLOCATION_SORTS.find((s) => s === sort) ?? DEFAULT_SORT,
    window: COLLOCATION_WINDOWS.find((w) => w === window) ?? DEFAULT_WINDOW,
  };
}

/**
 * The API's `left` and `right` of a window choice.
 * @example windowSides('left') // { left: 5, right: 0 }
 */
export function windowSides(w: CollocationWindow): { left: number; right: number } {
  return { left: w === 'right' ? 0 : WINDOW_SPAN, right: w === 'left' ? 0 : WINDOW_SPAN };
}

/**
 * A bar's length as a share of the longest (0 when all are 0), so the bars compare window frequencies at a glance.
 * @example barShare(5, 20) // 0.25
 */
export function barShare(value: number, max: number): number {
  return max > 0 ? Math.max(0, Math.min(1, value / max)) : 0;
}

const score = new Intl.NumberFormat('en', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const count = new Intl.NumberFormat('en', { maximumFractionDigits: 0 });
/** A score to two decimals; a weighted (sampled) frequency rounded to a whole count. */
export const formatScore = (v: number): string => score.format(v);
export const formatFrequency = (v: number): string => count.format(v);
