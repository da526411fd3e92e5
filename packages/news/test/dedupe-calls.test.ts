import { describe, expect, it } from 'vitest';
import { post, useFixtureStack } from './gateway-harness.ts';
import { ARTICLES } from './support/planted-stories.ts';
import { storiesByPeriod } from './support/story-brute.ts';

// Planted copies: the wire story in 2023-12 and 2024-01, its edited copy in 2024-02, another story in 2024-01.
const VERSION = 'dedupe-calls-1';
const { url } = useFixtureStack(ARTICLES, VERSION);
const call = (path: string, body: Record<string, unknown>) =>
  post(url(`/api/v2/${path}`), { index: 'news', query: 'Oil prices', ...body });

describe('dedupe on timeline, estimate and documents (planted copies, over HTTP)', () => {
  it('timeline counts each story once, in the period of its first matching article', async () => {
    const exact = await call('timeline', { dedupe: 'exact' });
    expect(exact.status).toBe(200);
    expect(exact.body.total_stories).toBe(3);
    expect(storiesByPeriod(exact.body.periods)).toEqual({ '2023-12': 1, '2024-01': 1, '2024-02': 1 });
    expect(exact.body.total_occurrences).toBe(4);
    // Within the story bound (1,000,000 occurrences) the count is exact: equal interval ends, no sample.
    expect(exact.body).toMatchObject({ stories_exact: true, total_stories_interval: { low: 3, high: 3 } });
    expect(exact.body.stories_sample).toBeUndefined();
    expect(exact.body.periods[0].stories_interval).toEqual({ low: 1, high: 1 });
    const near = await call('timeline', { dedupe: 'near' });
    expect(near.body.total_stories).toBe(2);
    expect(storiesByPeriod(near.body.periods)).toEqual({ '2023-12': 1, '2024-01': 1 });
    // Every period says its count, zeros included; no merge ids leave a gateway.
    expect(near.body.periods.map((p: { stories: number }) => p.stories)).toEqual([1, 1, 0]);
    expect(JSON.stringify(near.body)).not.toMatch(/spanning/);
    const plain = await call('timeline', {});
    expect(plain.body.total_stories).toBeUndefined();
    expect(plain.body.stories_exact).toBeUndefined();
  });

  it('timeline over later years counts a story in its first matching period inside them', async () => {
    const r = await call('timeline', { dedupe: 'near', year_min: 2024 });
    expect(r.body.total_stories).toBe(2);
    expect(storiesByPeriod(r.body.periods)).toEqual({ '2024-01': 2 });
  });

  it('estimate gives matching_stories and stories per period, as search counts them', async () => {
    for (const dedupe of ['exact', 'near'] as const) {
      const e = await call('estimate', { dedupe });
      const s = await post(url('/api/v2/search'), { index: 'news', query: '"Oil prices"', dedupe });
      const timeline = await call('timeline', { dedupe });
      expect(e.status).toBe(200);
      expect(e.body.matching_articles.value).toBe(4);
      expect(e.body.matching_stories).toEqual({ value: s.body.stories, low: s.body.stories, high: s.body.stories });
      expect(storiesByPeriod(e.body.periods)).toEqual(storiesByPeriod(timeline.body.periods));
    }
    const filtered = await call('estimate', { dedupe: 'near', sources: ['s2.synthetic.example'] });
    // The wire story's only article passing the filter is in 2024-01.
    expect(filtered.body.matching_stories.value).toBe(1);
    expect(storiesByPeriod(filtered.body.periods)).toEqual({ '2024-01': 1 });
  });

  it('documents pages list one record per story with its release-wide id and size; merged by id they are the stories', async () => {
    const find = await post(url('/api/v2/find'), { index: 'news', query: 'Oil prices' });
    for (const [dedupe, stories, sizes] of [
      ['exact', 3, [1, 1, 2, 2]],
      ['near', 2, [1, 3, 3, 3]],
    ] as const) {
      const byStory = new Map<number, number>();
      const seen: number[] = [];
      for (const [i, [lo, hi]] of (find.body.segment_by_shard as [number, number][]).entries()) {
        const page = await post(url('/api/v2/documents'), {
          index: 'news',
          shard_id: find.body.shard_ids[i],
          rank_from: lo,
          rank_to: hi,
          expected_index_version: VERSION,
          query: 'Oil prices',
          dedupe,
        });
        expect(page.status).toBe(200);
        expect(page.body.page_matching_stories).toBe(page.body.documents.length);
        for (const d of page.body.documents) {
          expect(d.page_copies).toBe(1);
          seen.push(d.story_size);
          byStory.set(d.story, d.story_size);
        }
      }
      expect(byStory.size).toBe(stories);
      expect(seen.sort((a, b) => a - b)).toEqual(sizes);
    }
  });

  it('refuses a timeline story sample outside its bounds with 422 naming the field', async () => {
    for (const bad of [{ sample_size: 99 }, { sample_size: 20_001 }, { seed: -1 }, { seed: 'one' }]) {
      const r = await call('timeline', { dedupe: 'near', ...bad });
      expect(r.status).toBe(422);
      expect(JSON.stringify(r.body)).toMatch(new RegExp(Object.keys(bad)[0] as string));
    }
    expect((await call('timeline', { dedupe: 'near', sample_size: 100, seed: 9 })).status).toBe(200);
  });

  it('refuses an unknown dedupe mode with 422 on every call', async () => {
    for (const path of ['timeline', 'estimate']) {
      const r = await call(path, { dedupe: 'fuzzy' });
      expect(r.status).toBe(422);
      expect(JSON.stringify(r.body)).toMatch(/dedupe/);
    }
  });
});
