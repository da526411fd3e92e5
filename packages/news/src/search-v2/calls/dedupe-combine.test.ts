import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { releaseOf, scenario as stories, type Shard } from '../stories/random-stories.fixture.ts';
import { encodeCursor, isAfter } from '../query/cursor.ts';
import { StoryDedupe } from '../query/dedupe.ts';
import type { ArticleMatch } from '../query/evaluate.ts';
import type { SearchArticle, SearchResult } from '../query/types.ts';
import { mergeSearchStories } from './dedupe-combine.ts';

/**
 * The random release, stories, matches and split of the timeline's test, with a random page size and cursor: the
 * merged stories, count after the cursor and page equal one worker holding every shard.
 */
const scenario = fc.tuple(stories, fc.integer({ min: 0, max: 4 }), fc.option(fc.nat(), { nil: undefined }));

const first = { term: 'q', offset: 0, left: '', match: '', right: '' };

describe('search stories across workers', () => {
  it('any split of the shards merges to one worker: stories, following, page and copies', () => {
    fc.assert(
      fc.property(scenario, ([s, pageSize, cursorAt]) => {
        const { shards, table, files } = releaseOf(s);
        const [yearMin, extra] = s.years;
        const years = { year_min: yearMin, year_max: Math.min(2002, yearMin + extra) };
        const selected = shards.filter((h) => Number(h.year) >= years.year_min && Number(h.year) <= years.year_max);
        const matched = (h: Shard) =>
          Array.from({ length: h.n }, (_, d) => d).filter(
            (d) => s.matches[(files.find((f) => f.year === h.year)?.base ?? 0) + h.docBase + d] === true,
          );
        const all = selected.flatMap((h) => matched(h).map((d) => ({ shard_id: h.shardId, doc_ix: h.docBase + d })));
        const mark = cursorAt === undefined || all.length === 0 ? undefined : all[cursorAt % all.length];
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
          const page = dedupe.pageOf(after, pageSize, (a) => a, spanning);
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
        expect({ ...merged, page: merged?.page.slice(0, pageSize) }).toEqual({
          ...one,
          page: one?.page.slice(0, pageSize),
        });
      }),
      { numRuns: 500 },
    );
  });
});
