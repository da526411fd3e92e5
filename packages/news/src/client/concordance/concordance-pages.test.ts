import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { concordancePage, concordanceSize, wholeConcordancePages } from './concordance-pages.ts';

describe('concordance pages', () => {
  it("takes a page across a shard's end from the next shards", () => {
    const found = {
      shard_ids: ['a', 'b', 'c'],
      segment_by_shard: [
        [5, 8],
        [3, 3],
        [0, 4],
      ] as [number, number][],
    };
    expect(concordanceSize(found)).toBe(7);
    expect(concordancePage(found, 0, 5)).toEqual([
      { shardId: 'a', rankFrom: 5, rankTo: 8 },
      { shardId: 'c', rankFrom: 0, rankTo: 2 },
    ]);
    expect(concordancePage(found, 1, 5)).toEqual([{ shardId: 'c', rankFrom: 2, rankTo: 4 }]);
    expect(concordancePage(found, 2, 5)).toEqual([]);
  });

  it('lists every occurrence exactly once, in order, in pages of at most the page size (against a naive enumeration)', () => {
    const seg = fc.tuple(fc.nat(30), fc.nat(30)).map(([a, w]) => [a, a + w] as [number, number]);
    fc.assert(
      fc.property(fc.array(seg, { maxLength: 6 }), fc.integer({ min: 1, max: 25 }), (segments, size) => {
        const found = { shard_ids: segments.map((_, i) => `s${i}`), segment_by_shard: segments };
        const naive = segments.flatMap(([a, b], i) => Array.from({ length: b - a }, (_, k) => `s${i}:${a + k}`));
        const paged: string[] = [];
        for (let p = 0; p * size < naive.length + size; p++) {
          const slices = concordancePage(found, p, size);
          const ranks = slices.flatMap((s) =>
            Array.from({ length: s.rankTo - s.rankFrom }, (_, k) => `${s.shardId}:${s.rankFrom + k}`),
          );
          expect(ranks.length).toBeLessThanOrEqual(size);
          paged.push(...ranks);
        }
        expect(paged).toEqual(naive);
        expect(concordanceSize(found)).toBe(naive.length);
      }),
    );
  });

  it('loads every occurrence up to the bound for the whole concordance, the first ones in corpus order past it', () => {
    const seg = fc.tuple(fc.nat(30), fc.nat(30)).map(([a, w]) => [a, a + w] as [number, number]);
    fc.assert(
      fc.property(
        fc.array(seg, { maxLength: 6 }),
        fc.integer({ min: 1, max: 25 }),
        fc.integer({ min: 1, max: 120 }),
        (segments, size, max) => {
          const found = { shard_ids: segments.map((_, i) => `s${i}`), segment_by_shard: segments };
          const naive = segments.flatMap(([a, b], i) => Array.from({ length: b - a }, (_, k) => `s${i}:${a + k}`));
          const pages = wholeConcordancePages(found, max, size);
          const ranks = pages.map((slices) =>
            slices.flatMap((s) =>
              Array.from({ length: s.rankTo - s.rankFrom }, (_, k) => `${s.shardId}:${s.rankFrom + k}`),
            ),
          );
          for (const page of ranks) expect(page.length).toBeLessThanOrEqual(size);
          expect(ranks.flat()).toEqual(naive.slice(0, max));
        },
      ),
    );
  });
});
