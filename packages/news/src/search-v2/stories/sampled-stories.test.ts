import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  estimateFromTallies,
  mergeStoryCopies,
  tallyStories,
  type StoryCopyCount,
  type StoryDraw,
} from './sampled-stories.ts';

/** Draws of stories 0–9 (null: no match) with k 1–4, each story's copies 1–6, and which stories are shared. */
const sample = fc.record({
  draws: fc.array(
    fc.option(fc.record({ story: fc.integer({ min: 0, max: 9 }), k: fc.integer({ min: 1, max: 4 }) }), {
      nil: null,
    }),
    { minLength: 1, maxLength: 60 },
  ),
  copies: fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 10, maxLength: 10 }),
  shared: fc.array(fc.boolean(), { minLength: 10, maxLength: 10 }),
  population: fc.integer({ min: 60, max: 100_000 }),
});

const copiesMap = (copies: readonly number[]) =>
  new Map(
    copies.map((c, story): [number, StoryCopyCount] => [story, { story, copies: c, first: story, period: null }]),
  );

describe('story estimate sums', () => {
  it('gives the same estimate when shared stories are completed with their copies later as when all copies are known', () => {
    fc.assert(
      fc.property(sample, ({ draws, copies, shared, population }) => {
        const all = copiesMap(copies);
        // The worker knows only 1 copy of each shared story; the gateway completes them.
        const local = copiesMap(copies.map((c, s) => (shared[s] === true ? 1 : c)));
        const direct = estimateFromTallies([tallyStories(draws, population, all)]);
        const completed = estimateFromTallies([tallyStories(draws, population, local, (s) => shared[s] === true)], all);
        for (const key of ['value', 'low', 'high'] as const)
          expect(Math.abs(completed[key] - direct[key])).toBeLessThanOrEqual(1);
      }),
      { numRuns: 500 },
    );
  });

  it('is the plain Horvitz–Thompson mean: N · Σ 1/(k·m) / n, at least the stories drawn', () => {
    const draws: StoryDraw[] = [{ story: 1, k: 2 }, { story: 1, k: 1 }, null, { story: 2, k: 1 }];
    const e = estimateFromTallies([tallyStories(draws, 400, copiesMap([1, 3, 1]))]);
    // x = 1/6, 1/3, 0, 1: mean 0.375.
    expect(e.value).toBe(150);
    expect(e.low).toBeGreaterThanOrEqual(2);
    expect(e.high).toBeGreaterThan(150);
  });

  it('estimates zero stories with an upper bound above zero when no draw matches', () => {
    const e = estimateFromTallies([tallyStories([null, null, null], 1000, new Map())]);
    expect(e).toMatchObject({ value: 0, low: 0 });
    expect(e.high).toBeGreaterThan(0);
  });

  it('adds copies over workers and keeps the earliest first match, in any order of the answers', () => {
    const a = [{ story: 5, copies: 2, first: 9, period: '2024-02' }];
    const b = [{ story: 5, copies: 0, first: null, period: null }];
    const c = [{ story: 5, copies: 3, first: 5, period: '2024-01' }];
    const want = { story: 5, copies: 5, first: 5, period: '2024-01' };
    for (const order of [
      [a, b, c],
      [c, b, a],
      [b, a, c],
    ])
      expect(mergeStoryCopies(order).get(5)).toEqual(want);
  });
});
