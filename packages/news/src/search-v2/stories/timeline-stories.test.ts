import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { TimelineResult } from '../types.ts';
import { coveredSpans, StoryFirsts } from './first-matches.ts';
import { mergeTimelineStories } from './timeline-stories.ts';
import { releaseOf, scenario, type Shard } from './random-stories.fixture.ts';

describe('stories per period across workers', () => {
  it('any split of the shards over workers merges to the brute-force count per period of first matching article', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const { shards, table, story, files } = releaseOf(s);
        const stories = { table, mode: 'exact' as const };
        const [yearMin, extra] = s.years;
        const yearMax = Math.min(2002, yearMin + extra);
        const selected = shards.filter((h) => Number(h.year) >= yearMin && Number(h.year) <= yearMax);
        const matchOf = (h: Shard, d: number) =>
          s.matches[(files.find((f) => f.year === h.year)?.base ?? 0) + h.docBase + d] === true;
        // Brute force: the period of each story's first matching article in release order.
        const truth = new Map<number, string>();
        for (const h of selected)
          for (let d = 0; d < h.n; d++) {
            const at = table.releaseNumber(h.year, h.docBase + d) as number;
            if (matchOf(h, d) && !truth.has(story[at] as number)) truth.set(story[at] as number, h.period);
          }
        const expected = new Map<string, number>();
        for (const p of truth.values()) expected.set(p, (expected.get(p) ?? 0) + 1);

        const selection = table.spanOfYears(yearMin, yearMax);
        const parts: TimelineResult[] = [0, 1, 2].map((w) => {
          const mine = selected.filter((h) => s.owner[shards.indexOf(h)] === w);
          const firsts = new StoryFirsts(stories);
          for (const h of mine) for (let d = 0; d < h.n; d++) if (matchOf(h, d)) firsts.add(h, d);
          const per = firsts.perPeriod();
          const spanning = firsts.spanning(selection, coveredSpans(stories, mine));
          if (mine.length === selected.length) expect(spanning.size).toBe(0);
          const periods = [...new Set(mine.map((h) => h.period))].map((period) => ({
            period,
            year: period.slice(0, 4),
            occurrences: 0,
            articles: 0,
            text_bytes: 0,
            shard_ids: [],
            stories: per.get(period) ?? 0,
            ...(spanning.has(period) ? { spanning_stories: spanning.get(period) } : {}),
          }));
          return { index_version: 'v', query: 'q', total_occurrences: 0, total_stories: firsts.count, periods };
        });
        const merged = mergeTimelineStories(parts, [...new Set(selected.map((h) => h.period))]) ?? new Map();
        expect(new Map([...merged].filter(([, n]) => n !== 0))).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
});
