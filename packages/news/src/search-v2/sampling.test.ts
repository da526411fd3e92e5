import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { meanInterval, sampleRanks, seededRandom, wilsonInterval } from './sampling.ts';

describe('sampling', () => {
  it('draws the same sample for the same seed and another for another seed', () => {
    const iv = [
      [10, 20],
      [0, 0],
      [5, 1005],
    ] as const;
    expect(sampleRanks(iv, 50, 7)).toEqual(sampleRanks(iv, 50, 7));
    expect(sampleRanks(iv, 50, 7)).not.toEqual(sampleRanks(iv, 50, 8));
  });

  it('draws only ranks inside the intervals, sorted by shard and rank', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(1000), fc.nat(50)), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 1, max: 200 }),
        fc.nat(),
        (pairs, size, seed) => {
          const iv = pairs.map(([lo, n]) => [lo, lo + n] as const);
          const total = iv.reduce((s, [lo, hi]) => s + hi - lo, 0);
          const sample = sampleRanks(iv, size, seed);
          expect(sample).toHaveLength(total === 0 ? 0 : size);
          for (const { shard, rank } of sample) {
            const [lo, hi] = iv[shard] as readonly [number, number];
            expect(rank >= lo && rank < hi).toBe(true);
          }
          const keys = sample.map((s) => s.shard * 1e6 + s.rank);
          expect(keys).toEqual([...keys].sort((a, b) => a - b));
        },
      ),
    );
  });

  it('weights shards by their interval size (each occurrence equally likely)', () => {
    const sample = sampleRanks(
      [
        [0, 1000],
        [0, 3000],
      ],
      40_000,
      3,
    );
    const second = sample.filter((s) => s.shard === 1).length / sample.length;
    expect(second).toBeGreaterThan(0.74);
    expect(second).toBeLessThan(0.76);
  });

  it('generates uniform doubles in [0, 1)', () => {
    const r = seededRandom(42);
    let sum = 0;
    for (let i = 0; i < 100_000; i++) {
      const x = r();
      expect(x >= 0 && x < 1).toBe(true);
      sum += x;
    }
    expect(Math.abs(sum / 100_000 - 0.5)).toBeLessThan(0.01);
  });

  it('gives Wilson intervals inside [0, population] that contain the point estimate, also at 0 and n hits', () => {
    for (const [hits, n] of [
      [0, 100],
      [100, 100],
      [37, 100],
      [1, 4000],
    ] as const) {
      const { low, high } = wilsonInterval(hits, n, 1000);
      expect(low).toBeGreaterThanOrEqual(0);
      expect(high).toBeLessThanOrEqual(1000);
      expect(low).toBeLessThanOrEqual((hits / n) * 1000);
      expect(high).toBeGreaterThanOrEqual((hits / n) * 1000);
      expect(high - low).toBeGreaterThan(0);
    }
  });

  it('scales the mean interval of per-draw values to the population', () => {
    expect(meanInterval([1, 1, 1, 1], 50)).toEqual({ value: 50, low: 50, high: 50 });
    const { value, low, high } = meanInterval([0, 1, 0, 1], 10);
    expect(value).toBe(5);
    expect(low).toBeLessThan(5);
    expect(high).toBeGreaterThan(5);
  });
});
