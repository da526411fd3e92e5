/**
 * Timeline with dedupe past the story bound on the real corpora (issue 28): the 95% intervals of total_stories and
 * of each period's stories hold the brute-force counts (a scan of the JSONL) in at least 93 of 100 seeds. The bound
 * is forced to 0 so these small corpora sample; sample_size 1,000 keeps the file's CPU modest.
 */
import { describe, expect, it } from 'vitest';
import { timeline } from '../src/search-v2/index.ts';
import { defaultShareOptions } from '../src/search-v2/frequencies/article-share.ts';
import { useStoryCorpora } from './support/story-corpora.ts';

const SAMPLED = 0;
const SEEDS = Array.from({ length: 100 }, (_, i) => i + 1);

const corpora = useStoryCorpora();

/** Distinct stories (the table's) of the articles holding the query's bytes, each in its first article's month. */
function truthOf(query: string, mode: 'exact' | 'near', years: readonly [number, number] | null) {
  const { table, records } = corpora();
  const needle = Buffer.from(query);
  const first = new Map<number | undefined, string>();
  for (const r of records) {
    if (years !== null && (Number(r.year) < years[0] || Number(r.year) > years[1])) continue;
    const story = table.storyOf(r.year, r.docIx, mode);
    if (!first.has(story) && r.text.includes(needle)) first.set(story, r.warc_date.slice(0, 7));
  }
  const perPeriod = new Map<string, number>();
  for (const p of first.values()) perPeriod.set(p, (perPeriod.get(p) ?? 0) + 1);
  return { total: first.size, perPeriod };
}

const holds = (iv: { low: number; high: number } | undefined, truth: number) =>
  iv !== undefined && iv.low <= truth && truth <= iv.high;

describe('timeline with dedupe past the story bound on the real corpora', () => {
  it.each([
    ['oil', 'near', null],
    ['said', 'exact', [1987, 1987]],
  ] as const)(
    'the 95%% intervals of %s (%s stories), in total and per period, hold the brute-force counts in at least 93 of 100 seeds',
    async (query, mode, years) => {
      const truth = truthOf(query, mode, years);
      const request = {
        index: 'news',
        query,
        dedupe: mode,
        sample_size: 1000,
        ...(years === null ? {} : { year_min: years[0], year_max: years[1] }),
      };
      const exact = await timeline(corpora().real, request);
      // Not vacuous: the exact count agrees with the scan, and the periods with stories are several.
      expect(exact.total_stories).toBe(truth.total);
      expect(truth.perPeriod.size).toBeGreaterThan(1);
      let total = 0;
      const perPeriod = new Map<string, number>();
      for (const seed of SEEDS) {
        const r = await timeline(corpora().real, { ...request, seed }, undefined, defaultShareOptions, SAMPLED);
        expect(r).toMatchObject({ stories_exact: false, stories_sample: { size: 1000, seed } });
        // The occurrence counts stay the exact timeline's.
        expect(r.total_occurrences).toBe(exact.total_occurrences);
        if (holds(r.total_stories_interval, truth.total)) total++;
        for (const p of r.periods)
          if (holds(p.stories_interval, truth.perPeriod.get(p.period) ?? 0))
            perPeriod.set(p.period, (perPeriod.get(p.period) ?? 0) + 1);
      }
      expect(total).toBeGreaterThanOrEqual(93);
      const periods = exact.periods.map((p) => p.period);
      expect(Object.fromEntries(periods.map((p) => [p, perPeriod.get(p) ?? 0]))).toEqual(
        Object.fromEntries(periods.map((p) => [p, Math.max(93, perPeriod.get(p) ?? 0)])),
      );
    },
    300_000,
  );
});
