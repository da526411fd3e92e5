import type { Estimated } from '../api/types.ts';

const format = new Intl.NumberFormat('en');

/** Rounds to `digits` significant digits: 12,345 → 12,300 for 3. */
function roundSignificant(n: number, digits: number): number {
  if (n === 0) return 0;
  const step = 10 ** Math.max(0, Math.floor(Math.log10(Math.abs(n))) - digits + 1);
  return Math.round(n / step) * step;
}

/**
 * A count as a reader should take it: exact figures as they are, an estimate as "≈ value ± margin" with the
 * margin (the larger side of the 95% interval) to two significant digits and the value to its leading digit.
 * @example formatEstimate({ value: 12_345, low: 11_950, high: 12_700 }) // '≈ 12,300 ± 400'
 * @example formatEstimate({ value: 42, low: 42, high: 42 }) // '42'
 */
export function formatEstimate(e: Estimated): string {
  if (e.low === e.value && e.high === e.value) return format.format(e.value);
  const margin = roundSignificant(Math.max(e.value - e.low, e.high - e.value), 2);
  if (margin === 0) return `≈ ${format.format(e.value)}`;
  const step = 10 ** Math.floor(Math.log10(margin));
  return `≈ ${format.format(Math.round(e.value / step) * step)} ± ${format.format(margin)}`;
}

/** A facet's sampled point value: "≈ 1,200" (2 significant digits are all a sample supports); exact ones as they are. */
export function formatFacetCount(n: number, exact: boolean): string {
  return exact ? format.format(n) : `≈ ${format.format(roundSignificant(n, 2))}`;
}
