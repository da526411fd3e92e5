import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formatEstimate, formatFacetCount } from './estimate-format.ts';

const parse = (s: string) =>
  s
    .replace(/^≈ /, '')
    .split(' ± ')
    .map((x) => Number(x.replace(/,/g, '')));

describe('estimate wording', () => {
  it('shows an exact count as it is and an estimate as "≈ value ± margin"', () => {
    expect(formatEstimate({ value: 42, low: 42, high: 42 })).toBe('42');
    expect(formatEstimate({ value: 12_345, low: 11_950, high: 12_700 })).toBe('≈ 12,300 ± 400');
    expect(formatEstimate({ value: 7, low: 3, high: 12 })).toBe('≈ 7 ± 5');
    expect(formatFacetCount(1_234, false)).toBe('≈ 1,200');
    expect(formatFacetCount(1_234, true)).toBe('1,234');
  });

  it('keeps the shown value within one rounding step of the point value and the margin at least the rounded half-width', () => {
    const interval = fc
      .tuple(fc.nat(10_000_000), fc.nat(1_000_000), fc.nat(1_000_000))
      .filter(([, a, b]) => a + b > 0)
      .map(([v, a, b]) => ({ value: v, low: Math.max(0, v - a), high: v + b }));
    fc.assert(
      fc.property(interval, (e) => {
        const text = formatEstimate(e);
        const [value = NaN, margin = 0] = parse(text);
        const half = Math.max(e.value - e.low, e.high - e.value);
        expect(margin).toBeGreaterThanOrEqual(half * 0.94);
        expect(Math.abs(value - e.value)).toBeLessThanOrEqual(Math.max(margin, 1) / 2 + 0.5);
      }),
    );
  });
});
