import fc from 'fast-check';
import type { ShardHandle } from '../../release/types.ts';
import { StoryTable } from '../../stories/index.ts';

/**
 * A release of three years, each of 1–3 shards (periods; a period may be split in two parts), random stories (an
 * article joins an earlier story or starts its own), random matches and a random split of the shards over 3 workers.
 */
export const scenario = fc.record({
  shardsPerYear: fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 3, maxLength: 3 }),
  docs: fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 9, maxLength: 9 }),
  joins: fc.array(fc.nat(), { minLength: 45, maxLength: 45 }),
  matches: fc.array(fc.boolean(), { minLength: 45, maxLength: 45 }),
  owner: fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 9, maxLength: 9 }),
  years: fc.tuple(fc.integer({ min: 2000, max: 2002 }), fc.integer({ min: 0, max: 2 })),
});

export type Shard = ShardHandle & { readonly period: string; readonly n: number };

export type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

export function releaseOf(s: Scenario) {
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
