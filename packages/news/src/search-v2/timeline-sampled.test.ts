import { Value } from '@sinclair/typebox/value';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { OpenRelease } from '../release/types.ts';
import { estimateIntervals, resolveEstimate } from './estimate-parts.ts';
import { estimateStoryCopies } from './estimate-stories.ts';
import { storiesToCount } from './estimate.ts';
import { buildPlainRelease, hasAb, randomStories, servedBy, SHARDS, withStories } from './sampled-release.fixture.ts';
import { TimelineAnswer, TimelineRequest as TimelineRequestSchema } from './calls/timeline.ts';
import { byShardOrder } from './shard-order.ts';
import { mergeStoryCopies } from './stories/sampled-stories.ts';
import { combineTimeline, timeline } from './timeline.ts';
import { countsOnly, storySampleDraws, storySampleRequest, withSampledStories } from './timeline-sampled.ts';
import { defaultShareOptions } from './frequencies/article-share.ts';
import type { TimelineRequest } from './types.ts';

// Every timeline below samples its stories: the story bound is 0 occurrences (the real one is 1,000,000).
const SAMPLED = 0;

let plain: OpenRelease;
beforeAll(async () => {
  plain = await buildPlainRelease();
});

const sampledTimeline = (release: OpenRelease, request: TimelineRequest) =>
  timeline(release, request, undefined, defaultShareOptions, SAMPLED);

/** The gateway's steps (gateway/cluster/timeline-split.ts) over workers each serving `parts[w]`, in process. */
async function acrossWorkers(whole: OpenRelease, request: TimelineRequest, parts: readonly string[][]) {
  const workers = parts.filter((p) => p.length > 0).map((p) => servedBy(whole, p));
  const sample = storySampleRequest(request);
  const plans = workers.map((w) => estimateIntervals(w, sample));
  const plan = {
    intervals: byShardOrder(
      SHARDS,
      plans.map((p) => ({ ids: p.intervals.map((iv) => iv[0]), items: p.intervals })),
    ),
    shard_ids: byShardOrder(
      SHARDS,
      plans.map((p) => ({ ids: p.shard_ids, items: p.shard_ids })),
    ),
    facet_fields: plans[0]?.facet_fields ?? [],
  };
  const draws = storySampleDraws(request, plan, SAMPLED);
  const counts = combineTimeline(await Promise.all(workers.map((w) => timeline(w, countsOnly(request)))), {
    order: SHARDS,
    indexVersion: whole.indexVersion,
  });
  // Each draw resolves on the worker holding its shard; the draws are independent, so the whole release stands in.
  const resolved = await resolveEstimate(whole, sample, draws);
  const ids = storiesToCount(sample, draws, resolved) ?? [];
  const copies = mergeStoryCopies(await Promise.all(workers.map((w) => estimateStoryCopies(w, sample, ids))));
  return withSampledStories(counts, request, plan, resolved, copies);
}

describe('timeline with dedupe past the story bound', () => {
  it('gives the one-worker answer for any split of the shards over workers, with intervals around every value', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.nat(), { minLength: 240, maxLength: 240 }),
        fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 4, maxLength: 4 }),
        fc.integer({ min: 1, max: 1_000 }),
        fc.constantFrom('exact' as const, 'near' as const),
        async (joins, owner, seed, dedupe) => {
          const whole = withStories(plain, randomStories(joins));
          const request: TimelineRequest = { index: 'news', query: 'ab', dedupe, sample_size: 120, seed };
          const one = await sampledTimeline(whole, request);
          const split = await acrossWorkers(
            whole,
            request,
            [0, 1, 2].map((w) => SHARDS.filter((_, i) => owner[i] === w)),
          );
          expect(split).toEqual(one);
          expect(one).toMatchObject({
            stories_exact: false,
            stories_sample: { size: 120, seed, confidence: 0.95 },
          });
          // The counts stay what the timeline without dedupe answers.
          const plainCounts = await timeline(whole, { index: 'news', query: 'ab' });
          expect(one.total_occurrences).toBe(plainCounts.total_occurrences);
          expect(one.periods.map(({ period, occurrences, articles }) => ({ period, occurrences, articles }))).toEqual(
            plainCounts.periods.map(({ period, occurrences, articles }) => ({ period, occurrences, articles })),
          );
          const total = one.total_stories_interval ?? { low: -1, high: -1 };
          expect(total.low).toBeLessThanOrEqual(one.total_stories ?? -1);
          expect(one.total_stories ?? Infinity).toBeLessThanOrEqual(total.high);
          for (const p of one.periods) {
            const iv = p.stories_interval ?? { low: -1, high: -1 };
            expect(iv.low).toBeLessThanOrEqual(p.stories ?? -1);
            expect(p.stories ?? Infinity).toBeLessThanOrEqual(iv.high);
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it('counts each story in the period of its first matching article, even when only another worker holds it', async () => {
    // Every "ab" article is one story: first matched in 2020-01 (article 0), so every other period has none.
    const whole = withStories(
      plain,
      Uint32Array.from({ length: 240 }, (_, n) => (hasAb(n) ? 0 : n)),
    );
    const request: TimelineRequest = { index: 'news', query: 'ab', dedupe: 'exact', sample_size: 200, seed: 3 };
    const one = await sampledTimeline(whole, request);
    expect(one.total_stories).toBe(1);
    expect(one.periods.map((p) => [p.period, p.stories])).toEqual([
      ['2020-01', 1],
      ['2020-02', 0],
      ['2021-01', 0],
      ['2021-02', 0],
    ]);
    // A period no draw reaches answers 0 with an upper bound above 0 (its stories are not known to be none).
    expect(one.periods[3]?.stories_interval?.low).toBe(0);
    expect(one.periods[3]?.stories_interval?.high).toBeGreaterThan(0);
    expect(await acrossWorkers(whole, request, [['2021-01', '2021-02'], ['2020-01'], ['2020-02']])).toEqual(one);
    expect([...Value.Errors(TimelineAnswer, one)].map((e) => `${e.path}: ${e.message}`)).toEqual([]);
  });

  it('takes sample_size and seed as estimate does, and refuses a sample outside its bounds', () => {
    const body = { index: 'news', query: 'ab', dedupe: 'near' };
    expect(Value.Check(TimelineRequestSchema, { ...body, sample_size: 100, seed: 0 })).toBe(true);
    expect(Value.Check(TimelineRequestSchema, { ...body, sample_size: 20_000, seed: null })).toBe(true);
    expect(Value.Check(TimelineRequestSchema, { ...body, sample_size: 99 })).toBe(false);
    expect(Value.Check(TimelineRequestSchema, { ...body, sample_size: 20_001 })).toBe(false);
    expect(Value.Check(TimelineRequestSchema, { ...body, seed: -1 })).toBe(false);
  });

  it('counts exactly within the bound: equal interval ends and stories_exact true, no stories_sample', async () => {
    const whole = withStories(
      plain,
      Uint32Array.from({ length: 240 }, (_, n) => n - (n % 2)),
    );
    const r = await timeline(whole, { index: 'news', query: 'ab', dedupe: 'near' });
    // Articles 2k and 2k+1 share a story, and article 2k always holds "ab": 120 stories.
    expect(r).toMatchObject({
      stories_exact: true,
      total_stories: 120,
      total_stories_interval: { low: 120, high: 120 },
    });
    expect(r.stories_sample).toBeUndefined();
    for (const p of r.periods) expect(p.stories_interval).toEqual({ low: p.stories, high: p.stories });
    expect([...Value.Errors(TimelineAnswer, r)].map((e) => `${e.path}: ${e.message}`)).toEqual([]);
  });
});
