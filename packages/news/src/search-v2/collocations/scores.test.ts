import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scoresOf } from './scores.ts';

/** Dunning's G² written out cell by cell: 2 Σ O ln(O / E) over the 2×2 table, E from the margins. */
function gSquared(fxy: number, fx: number, fy: number, n: number): number {
  const cells = [
    [fxy, fx, fy],
    [fx - fxy, fx, n - fy],
    [fy - fxy, n - fx, fy],
    [n - fx - fy + fxy, n - fx, n - fy],
  ] as const;
  return 2 * cells.reduce((s, [o, row, col]) => s + (o > 0 ? o * Math.log(o / ((row * col) / n)) : 0), 0);
}

const table = fc
  .record({
    fx: fc.integer({ min: 1, max: 10_000 }),
    fy: fc.integer({ min: 1, max: 10_000 }),
    extra: fc.integer({ min: 0, max: 1e7 }),
    share: fc.double({ min: 0.001, max: 1, noNaN: true }),
  })
  .map(({ fx, fy, extra, share }) => ({
    fx,
    fy,
    fxy: Math.max(1, Math.floor(Math.min(fx, fy) * share)),
    n: fx + fy + extra,
  }));

describe('association scores', () => {
  it('log-likelihood equals the cell-by-cell G² of the 2×2 table', () => {
    fc.assert(
      fc.property(table, ({ fxy, fx, fy, n }) => {
        const ll = scoresOf({ fxy, fx, fy, n }).log_likelihood;
        expect(Math.abs(ll - gSquared(fxy, fx, fy, n))).toBeLessThanOrEqual(1e-6 * Math.max(1, Math.abs(ll)));
      }),
    );
  });

  it('logDice is 14 at most, reached when the two words always occur together', () => {
    fc.assert(
      fc.property(table, ({ fxy, fx, fy, n }) => {
        expect(scoresOf({ fxy, fx, fy, n }).log_dice).toBeLessThanOrEqual(14 + 1e-12);
      }),
    );
    expect(scoresOf({ fxy: 40, fx: 40, fy: 40, n: 1000 }).log_dice).toBe(14);
  });

  it('MI is log2 of observed over expected co-occurrence', () => {
    expect(scoresOf({ fxy: 10, fx: 100, fy: 50, n: 1_000_000 }).mi).toBeCloseTo(
      Math.log2((10 * 1_000_000) / (100 * 50)),
      12,
    );
    expect(scoresOf({ fxy: 10, fx: 100, fy: 50, n: 1_000_000 }).log_dice).toBeCloseTo(14 + Math.log2(20 / 150), 12);
  });
});
