import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ShardHandle } from '../../release/types.ts';
import { StoryTable } from '../../stories/index.ts';
import { encodeCursor, isAfter } from '../query/cursor.ts';
import { StoryDedupe } from '../query/dedupe.ts';
import type { ArticleMatch } from '../query/evaluate.ts';
import type { SearchArticle, SearchResult } from '../query/types.ts';
import { mergeSearchStories } from './dedupe-combine.ts';

/**
 * Three years of 1–3 shards each, random stories (an article joins an earlier story or starts its own), random
 * matches, a random split of the shards over 3 workers, a random page size and cursor: the merged stories, count
 * after the cursor and page equal one worker holding every shard.
 */
const scenario = fc.record({
  shardsPerYear: fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 3, maxLength: 3 }),
  docs: fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 9, maxLength: 9 }),
  joins: fc.array(fc.nat(), { minLength: 45, maxLength: 45 }),
  matches: fc.array(fc.boolean(), { minLength: 45, maxLength: 45 }),
  owner: fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 9, maxLength: 9 }),
  years: fc.tuple(fc.integer({ min: 2000, max: 2002 }), fc.integer({ min: 0, max: 2 })),
  pageSize: fc.integer({ min: 0, max: 4 }),
  cursorAt: fc.option(fc.nat(), { nil: undefined }),
});
type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;
type Shard = ShardHandle & { readonly n: number; readonly at: number };

function releaseOf(s: Scenario): { shards: Shard[]; table: StoryTable } {
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
      const period = `${year}-0${Math.max(1, i)}`;
      const shardId = i < 2 && count > 1 ? `${period}.p00${i + 1}` : period;
      shards.push({ shardId, year, docBase, n, at: base + docBase, reader: { stats: { docCount: n } } } as never);
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
  return { shards, table };
}

const first = { term: 'q', offset: 0, left: '', match: '', right: '' };

describe('search stories across workers', () => {
  it('any split of the shards merges to one worker: stories, following, page and copies', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const { shards, table } = releaseOf(s);
        const [yearMin, extra] = s.years;
        const years = { year_min: yearMin, year_max: Math.min(2002, yearMin + extra) };
        const selected = shards.filter((h) => Number(h.year) >= years.year_min && Number(h.year) <= years.year_max);
        const matched = (h: Shard) =>
          Array.from({ length: h.n }, (_, d) => d).filter((d) => s.matches[h.at + d] === true);
        const all = selected.flatMap((h) => matched(h).map((d) => ({ shard_id: h.shardId, doc_ix: h.docBase + d })));
        const mark = s.cursorAt === undefined || all.length === 0 ? undefined : all[s.cursorAt % all.length];
        const cursor = mark && encodeCursor({ index_version: 'v', ...mark });
        const answer = (
          mine: readonly Shard[],
        ): Pick<SearchResult, 'stories' | 'following' | 'page' | 'spanning_stories'> => {
          const dedupe = new StoryDedupe(table, 'exact');
          const after = mine.flatMap((h) =>
            dedupe
              .firstOfStories(
                h,
                matched(h).map((doc) => ({ doc }) as ArticleMatch),
                (m) => isAfter(mark && { index_version: 'v', ...mark }, h.shardId, h.docBase + m.doc),
              )
              .map((m): SearchArticle => ({
                shard_id: h.shardId,
                year: h.year,
                doc_ix: h.docBase + m.doc,
                metadata: null,
                first,
              })),
          );
          const spanning = dedupe.spanning(years, mine);
          if (mine.length === selected.length) expect(spanning).toEqual([]);
          const page = dedupe.pageOf(after, s.pageSize, (a) => a, spanning);
          return {
            stories: dedupe.stories,
            following: after.length,
            page: dedupe.withCopies(page),
            ...(spanning.length === 0 ? {} : { spanning_stories: spanning }),
          };
        };
        const pos = (id: string) => selected.findIndex((h) => h.shardId === id);
        const body = { cursor };
        const one = mergeSearchStories([answer(selected)], body, pos);
        const parts = [0, 1, 2].map((w) => answer(selected.filter((h) => s.owner[shards.indexOf(h)] === w)));
        const merged = mergeSearchStories(parts, body, pos);
        expect({ ...merged, page: merged?.page.slice(0, s.pageSize) }).toEqual({
          ...one,
          page: one?.page.slice(0, s.pageSize),
        });
      }),
      { numRuns: 500 },
    );
  });
});
