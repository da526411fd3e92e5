import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isExhausted, planPages, remainingRanks, segmentsOf, startCursor, type Segment } from './examine-plan.ts';

const segmentsArb = fc.array(fc.tuple(fc.nat(5000), fc.nat(3000)), { maxLength: 6 }).map((pairs) =>
  pairs.map(([lo, len], i): Segment => ({
    shardId: `2024-${String(i + 1).padStart(2, '0')}`,
    year: '2024',
    lo,
    hi: lo + len,
  })),
);

describe('examination plan', () => {
  it('drops empty shards from a find answer and keeps find order', () => {
    const segs = segmentsOf({
      index_version: 'v',
      total_occurrences: 7,
      shard_ids: ['2023-12', '2024-01', '2024-02'],
      shard_years: ['2023', '2024', '2024'],
      segment_by_shard: [
        [3, 5],
        [9, 9],
        [0, 5],
      ],
    });
    expect(segs.map((s) => s.shardId)).toEqual(['2023-12', '2024-02']);
  });

  it('spans shards within one budget and continues where it stopped', () => {
    const segs: Segment[] = [
      { shardId: 'a', year: '2024', lo: 0, hi: 700 },
      { shardId: 'b', year: '2024', lo: 5, hi: 905 },
    ];
    const first = planPages(segs, startCursor(segs));
    expect(first.pages).toEqual([
      { shardId: 'a', rankFrom: 0, rankTo: 700 },
      { shardId: 'b', rankFrom: 5, rankTo: 305 },
    ]);
    expect(remainingRanks(segs, first.next)).toBe(600);
    const second = planPages(segs, first.next);
    expect(second.pages).toEqual([{ shardId: 'b', rankFrom: 305, rankTo: 905 }]);
    expect(isExhausted(segs, second.next)).toBe(true);
  });

  it('examines every rank exactly once, at most 1,000 per step, each page inside its shard', () => {
    fc.assert(
      fc.property(segmentsArb, fc.integer({ min: 97, max: 1000 }), (segs, budget) => {
        const seen = new Map<string, number>();
        let cursor = startCursor(segs);
        for (let step = 0; !isExhausted(segs, cursor); step++) {
          expect(step).toBeLessThan(10_000);
          const { pages, next } = planPages(segs, cursor, budget);
          const size = pages.reduce((n, p) => n + p.rankTo - p.rankFrom, 0);
          expect(size).toBeLessThanOrEqual(budget);
          expect(size === budget || isExhausted(segs, next)).toBe(true);
          for (const p of pages) {
            const seg = segs.find((s) => s.shardId === p.shardId) as Segment;
            expect(p.rankFrom).toBeGreaterThanOrEqual(seg.lo);
            expect(p.rankTo).toBeLessThanOrEqual(seg.hi);
            seen.set(p.shardId, (seen.get(p.shardId) ?? 0) + p.rankTo - p.rankFrom);
          }
          cursor = next;
        }
        for (const s of segs) expect(seen.get(s.shardId) ?? 0).toBe(s.hi - s.lo);
      }),
    );
  });
});
