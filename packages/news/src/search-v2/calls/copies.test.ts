import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pageOfCopies, type CopiesResult, type StoryCopy } from '../query/story-copies.ts';
import { EMPTY_METADATA } from '../memory-release.fixture.ts';
import { combineCopies } from './copies.ts';

const SHARDS = ['2023-11', '2023-12.p001', '2023-12.p002', '2024-01', '2024-02'];
const DATES = [null, '2023-12-30', '2024-01-02', '2024-01-02T08:00:00', '2024-02-05'];

/**
 * Random copies of one story (shard, doc_ix, a date or none, ties common), a random split of the shards over 3
 * workers and a page size: paging the merged answers of the workers lists what one process holding all lists.
 */
const scenario = fc.record({
  copies: fc.uniqueArray(
    fc.record({ shard: fc.nat({ max: 4 }), doc: fc.nat({ max: 6 }), date: fc.nat({ max: 4 }), warc: fc.boolean() }),
    { selector: (c) => `${c.shard}/${c.doc}`, maxLength: 20 },
  ),
  owner: fc.array(fc.nat({ max: 2 }), { minLength: 5, maxLength: 5 }),
  pageSize: fc.integer({ min: 1, max: 6 }),
});

const copyOf = (c: { shard: number; doc: number; date: number; warc: boolean }): StoryCopy => ({
  shard_id: SHARDS[c.shard] as string,
  year: (SHARDS[c.shard] as string).slice(0, 4),
  doc_ix: c.doc,
  // The date is the article's date, or only its crawl date: both order the list.
  metadata: { ...EMPTY_METADATA, [c.warc ? 'warc_date' : 'date']: DATES[c.date] ?? null },
});

function pages(answer: (cursor: string | null) => CopiesResult): StoryCopy[][] {
  const out: StoryCopy[][] = [];
  let cursor: string | null = null;
  do {
    const a = answer(cursor);
    out.push([...a.page]);
    cursor = a.next_cursor;
  } while (cursor !== null && out.length < 50);
  return out;
}

describe('copies of a story across workers', () => {
  it('any split of the shards merges, page by page, to what one process lists, in date then release order', () => {
    fc.assert(
      fc.property(scenario, ({ copies, owner, pageSize }) => {
        const all = copies.map(copyOf);
        const request = (cursor: string | null) => ({ story: 7, cursor, page_size: pageSize });
        const one = pages((cursor) => pageOfCopies('v', request(cursor), 30, all));
        const merged = pages((cursor) =>
          combineCopies(
            [0, 1, 2].map((w) =>
              pageOfCopies(
                'v',
                request(cursor),
                30,
                all.filter((c) => owner[SHARDS.indexOf(c.shard_id)] === w),
              ),
            ),
            { order: SHARDS, indexVersion: 'v' },
            { index: 'news', dedupe: 'exact', expected_index_version: 'v', ...request(cursor) },
          ),
        );
        expect(merged).toEqual(one);
        const listed = one.flat();
        expect(listed).toHaveLength(all.length);
        // Dated before undated, dates ascending, ties in release order.
        const key = (c: StoryCopy): [string, string, number] => [
          c.metadata?.date ?? c.metadata?.warc_date ?? '\uffff',
          c.shard_id,
          c.doc_ix,
        ];
        for (let i = 1; i < listed.length; i++) {
          const [a, b] = [key(listed[i - 1] as StoryCopy), key(listed[i] as StoryCopy)];
          expect(a[0] < b[0] || (a[0] === b[0] && (a[1] < b[1] || (a[1] === b[1] && a[2] < b[2])))).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });
});
