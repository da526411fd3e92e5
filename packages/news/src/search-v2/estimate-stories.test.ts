import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { OpenRelease } from '../release/types.ts';
import { combineEstimate, estimate, estimateDraws, mergeStoryCopies, storiesToCount } from './estimate.ts';
import { estimateIntervals, resolveEstimate } from './estimate-parts.ts';
import { estimateStoryCopies } from './estimate-stories.ts';
import {
  buildPlainRelease,
  hasAb,
  randomStories as storiesOf,
  servedBy,
  SHARDS,
  withStories as storiesIn,
} from './sampled-release.fixture.ts';
import type { EstimateRequest } from './types.ts';

// Every query below is sampled: the exact bound is 0 occurrences.
const SAMPLED = 0;

let plain: OpenRelease;
beforeAll(async () => {
  plain = await buildPlainRelease();
});
const withStories = (story: Uint32Array) => storiesIn(plain, story);

describe('estimate with dedupe past the exact bound', () => {
  it('gives the one-worker answer for any split of the shards over workers, from copies that are brute force', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.nat(), { minLength: 240, maxLength: 240 }),
        fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 4, maxLength: 4 }),
        fc.integer({ min: 1, max: 1_000 }),
        fc.boolean(),
        async (joins, owner, seed, filtered) => {
          const story = storiesOf(joins);
          const whole = withStories(story);
          const request: EstimateRequest = {
            index: 'news',
            query: 'ab',
            dedupe: 'near',
            sample_size: 120,
            seed,
            ...(filtered ? { sources: ['even.example'] } : {}),
          };
          const one = await estimate(whole, request, undefined, SAMPLED);
          expect(one.mode).toBe('sampled');
          // The gateway's steps: the draws resolved where they are (same arithmetic), copies counted per worker.
          const plan = estimateIntervals(whole, request);
          const draws = estimateDraws(request, plan, SAMPLED);
          const resolved = await resolveEstimate(whole, request, draws);
          const ids = storiesToCount(request, draws, resolved) ?? [];
          expect(ids.length).toBeGreaterThan(0);
          const parts = await Promise.all(
            [0, 1, 2].map((w) =>
              estimateStoryCopies(
                servedBy(
                  whole,
                  SHARDS.filter((_, i) => owner[i] === w),
                ),
                request,
                ids,
              ),
            ),
          );
          const merged = mergeStoryCopies(parts);
          for (const id of ids) {
            const members = [...story.keys()].filter((n) => story[n] === id && hasAb(n) && (!filtered || n % 2 === 0));
            expect(merged.get(id)).toMatchObject({ copies: members.length, first: members[0] ?? null });
          }
          expect(combineEstimate('stories-v1', request, plan, resolved, merged, SAMPLED)).toEqual(one);
          const stories = one.matching_stories ?? { value: -1, low: -1, high: -1 };
          expect(stories.low).toBeLessThanOrEqual(stories.value);
          expect(stories.value).toBeLessThanOrEqual(stories.high);
          expect(stories.low).toBeLessThanOrEqual(one.matching_articles.high);
        },
      ),
      { numRuns: 40 },
    );
  });

  it("counts a story whose copies are all on another worker there, and the other worker's first match comes first", async () => {
    // Story 0: article 0 (2020-01) and every "ab" article of 2021-02 (180…239); story 2 only in 2021-02.
    const story = Uint32Array.from({ length: 240 }, (_, n) => (n === 0 || (n >= 180 && hasAb(n) && n !== 181) ? 0 : n));
    const whole = withStories(story);
    const request: EstimateRequest = { index: 'news', query: 'ab', dedupe: 'exact' };
    const early = await estimateStoryCopies(servedBy(whole, ['2020-01', '2020-02']), request, [0, 181]);
    const late = await estimateStoryCopies(servedBy(whole, ['2021-01', '2021-02']), request, [0, 181]);
    expect(early).toEqual([
      { story: 0, copies: 1, first: 0, period: '2020-01' },
      { story: 181, copies: 0, first: null, period: null },
    ]);
    expect(late).toEqual([
      { story: 0, copies: 44, first: 180, period: '2021-02' },
      { story: 181, copies: 1, first: 181, period: '2021-02' },
    ]);
    const merged = mergeStoryCopies([late, early]);
    expect(merged.get(0)).toEqual({ story: 0, copies: 45, first: 0, period: '2020-01' });
    expect(merged.get(181)).toEqual({ story: 181, copies: 1, first: 181, period: '2021-02' });
    expect(await estimateStoryCopies(whole, request, [0, 181])).toEqual([...merged.values()]);
  });

  it('answers zero stories with an upper bound above zero when no draw passes, and asks about no story', async () => {
    const whole = withStories(Uint32Array.from({ length: 240 }, (_, n) => n));
    const request: EstimateRequest = { index: 'news', query: 'ab', dedupe: 'near', sources: ['nowhere.example'] };
    const r = await estimate(whole, request, undefined, SAMPLED);
    expect(r.mode).toBe('sampled');
    expect(r.matching_articles.value).toBe(0);
    expect(r.matching_stories?.value).toBe(0);
    expect(r.matching_stories?.low).toBe(0);
    expect(r.matching_stories?.high).toBeGreaterThan(0);
    expect(r.periods.map((p) => p.stories)).toEqual([0, 0, 0, 0]);
    const plan = estimateIntervals(whole, request);
    const draws = estimateDraws(request, plan, SAMPLED);
    expect(storiesToCount(request, draws, await resolveEstimate(whole, request, draws))).toEqual([]);
  });

  it('keeps dedupe none and exact mode as they were: no story step, exact stories under the bound', async () => {
    const whole = withStories(Uint32Array.from({ length: 240 }, (_, n) => n - (n % 2)));
    const none = await estimate(whole, { index: 'news', query: 'ab' }, undefined, SAMPLED);
    expect(none.matching_stories).toBeUndefined();
    const exact = await estimate(whole, { index: 'news', query: 'ab', dedupe: 'exact' });
    // Pairs (2m, 2m+1) are stories; a pair matches unless both miss "ab" (never: only n % 4 === 3 misses).
    expect(exact.mode).toBe('exact');
    expect(exact.matching_stories).toEqual({ value: 120, low: 120, high: 120 });
  });
});
