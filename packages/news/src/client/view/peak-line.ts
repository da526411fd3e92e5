import { formatCount, plural } from './dom.ts';

/**
 * The "Found in N crawl months; most in …" line from per-period counts: find's intervals for plain searches, the
 * estimate's periods for whole-word ones (issue 29 bug 6), where a sampled estimate makes both figures approximate.
 * Null when nothing occurs.
 * @example peakLine([{ period: '2020-01', occurrences: 3 }], false, true) // 'Found in 1 crawl month; most in 2020-01 (3).'
 */
export function peakLine(
  periods: readonly { readonly period: string; readonly occurrences: number }[],
  yearly: boolean,
  exact: boolean,
): string | null {
  const active = periods.filter((p) => p.occurrences > 0);
  const peak = active.reduce<(typeof active)[number] | null>(
    (best, p) => (best === null || p.occurrences > best.occurrences ? p : best),
    null,
  );
  if (peak === null) return null;
  const months = plural(active.length, yearly ? 'crawl year' : 'crawl month', yearly ? 'crawl years' : 'crawl months');
  return exact
    ? `Found in ${months}; most in ${peak.period} (${formatCount(peak.occurrences)}).`
    : `Found in at least ${months}; most in ${peak.period} (≈ ${formatCount(Math.round(peak.occurrences))}, from a sample).`;
}
