import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { axisTicks, chartData } from './chart-data.ts';

describe('chart of occurrences per crawl month', () => {
  it('counts each shard by the width of its rank interval and fills months without a shard with zero', () => {
    const d = chartData({
      shard_ids: ['2023-11', '2024-02'],
      segment_by_shard: [
        [10, 14],
        [0, 1],
      ],
    });
    expect(d.bars).toEqual([
      { period: '2023-11', count: 4 },
      { period: '2023-12', count: 0 },
      { period: '2024-01', count: 0 },
      { period: '2024-02', count: 1 },
    ]);
    expect([d.max, d.total, d.yearly]).toEqual([4, 5, false]);
  });

  it('sums the parts of a split period into one bar (monthly and yearly)', () => {
    const m = chartData({
      shard_ids: ['2024-01.p001', '2024-01.p002', '2024-02'],
      segment_by_shard: [
        [0, 2],
        [7, 10],
        [1, 2],
      ],
    });
    expect(m.bars).toEqual([
      { period: '2024-01', count: 5 },
      { period: '2024-02', count: 1 },
    ]);
    expect(m.yearly).toBe(false);
    const y = chartData({
      shard_ids: ['2019.p001', '2019.p002'],
      segment_by_shard: [
        [0, 1],
        [0, 4],
      ],
    });
    expect([y.bars, y.yearly]).toEqual([[{ period: '2019', count: 5 }], true]);
  });

  it('shows yearly shards as years', () => {
    const d = chartData({
      shard_ids: ['1987', '1988'],
      segment_by_shard: [
        [0, 3],
        [5, 5],
      ],
    });
    expect(d.bars).toEqual([
      { period: '1987', count: 3 },
      { period: '1988', count: 0 },
    ]);
    expect(d.yearly).toBe(true);
  });

  it('is empty for a find answer without shards', () => {
    expect(chartData({ shard_ids: [], segment_by_shard: [] })).toEqual({ bars: [], max: 0, total: 0, yearly: false });
  });

  it('keeps the total of the find answer, whatever the months', () => {
    const month = fc
      .tuple(fc.integer({ min: 1990, max: 2030 }), fc.integer({ min: 1, max: 12 }))
      .map(([y, m]) => `${y}-${String(m).padStart(2, '0')}`);
    fc.assert(
      fc.property(
        fc.uniqueArray(month, { maxLength: 8 }),
        fc.array(fc.nat(50), { minLength: 8, maxLength: 8 }),
        (ids, ns) => {
          const d = chartData({ shard_ids: ids, segment_by_shard: ids.map((_, i) => [0, ns[i] ?? 0] as const) });
          expect(d.total).toBe(ids.reduce((s, _, i) => s + (ns[i] ?? 0), 0));
          expect(d.bars.map((b) => b.period)).toEqual([...d.bars.map((b) => b.period)].sort());
        },
      ),
    );
  });

  it('picks round axis ticks that reach the maximum', () => {
    expect(axisTicks(0)).toEqual([0]);
    expect(axisTicks(37)).toEqual([0, 10, 20, 30, 40]);
    expect(axisTicks(4)).toEqual([0, 1, 2, 3, 4]);
  });
});
