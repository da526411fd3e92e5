import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ShardHandle } from '../../release/types.ts';
import { StoryTable } from '../../stories/index.ts';
import type { TimelineResult } from '../types.ts';
import { coveredSpans, StoryFirsts } from './first-matches.ts';
import { mergeTimelineStories } from './timeline-stories.ts';

/**
 * A release of three years, each of 1–3 shards (periods; a period may be split in two parts), random stories (an
 * article joins an earlier story or starts its own), random matches and a random split of the shards over 3 workers.
 */
const scenario = fc.record({
  shardsPerYear: fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 3, maxLength: 3 }),
  docs: fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 9, maxLength: 9 }),
  joins: fc.array(fc.nat(), { minLength: 45, maxLength: 45 }),
  matches: fc.array(fc.boolean(), { minLength: 45, maxLength: 45 }),
  owner: fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 9, maxLength: 9 }),
  years: fc.tuple(fc.integer({ min: 2000, max: 2002 }), fc.integer({ min: 0, max: 2 })),
});

type Shard = ShardHandle & { readonly period: string; readonly n: number };

type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

function releaseOf(s: Scenario) {
  const shards: Shard[] = [];
  const files = [];
  let at = 0;
  let k = 0;
  for (const [y, count] of s.shardsPerYear.entries()) {
    const year = String(2000 + y);
    const base = at;
    let docBase = 0;
    for (let i = 0; i < count; i++, k++) {
      const n = s.docs[k] ?? 0;
      // Shards 0 and 1 of a year are the two parts of its first month.
      const period = `${year}-0${Math.max(1, i)}`;
      const shardId = i < 2 && count > 1 ? `${period}.p00${i + 1}` : period;
      const stats = { docCount: n };
      shards.push({ shardId, year, docBase, n, period, reader: { stats } } as unknown as Shard);
      docBase += n;
    }
    at += docBase;
    files.push({ year, base, docs: docBase });
  }
  const story = new Uint32Array(at);
  for (let i = 0; i < at; i++) {
    const j = (s.joins[i] ?? 0) % (i + 1);
    story[i] = j === i ? i : (story[j] as number);
  }
  const table = new StoryTable(
    files.map((f) => ({
      year: f.year,
      base: f.base,
      releaseDocs: at,
      exact: story.slice(f.base, f.base + f.docs),
      near: story.slice(f.base, f.base + f.docs),
    })),
  );
  return { shards, table, story, files };
}

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
