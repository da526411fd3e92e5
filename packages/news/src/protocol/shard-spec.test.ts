import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseShardSpec, selectShardIds, ShardSpecError, specHolds } from './shard-spec.ts';

const RELEASE = ['2018-12', '2019-01', '2019-02.p001', '2019-02.p002', '2019-03', '2019-12', '2020-01'];

describe('shard specs', () => {
  it('selects ids and inclusive period ranges, parts with their period, in release order', () => {
    expect(selectShardIds(parseShardSpec('2019-01..2019-02'), RELEASE)).toEqual([
      '2019-01',
      '2019-02.p001',
      '2019-02.p002',
    ]);
    expect(selectShardIds(parseShardSpec('2020-01, 2019-02.p002'), RELEASE)).toEqual(['2019-02.p002', '2020-01']);
    expect(selectShardIds(parseShardSpec('2019..2019'), RELEASE)).toEqual([
      '2019-01',
      '2019-02.p001',
      '2019-02.p002',
      '2019-03',
      '2019-12',
    ]);
    expect(selectShardIds(parseShardSpec('2018-06..2019'), RELEASE)).toEqual([
      '2018-12',
      '2019-01',
      '2019-02.p001',
      '2019-02.p002',
      '2019-03',
      '2019-12',
    ]);
  });

  it.each([
    '',
    '2019-01,',
    '2019-1',
    '2019-01..',
    '2019-03..2019-01',
    '2019-01..2019-02..2019-03',
    '2019-01.p1',
    'all',
  ])('refuses %j', (text) => {
    expect(() => parseShardSpec(text)).toThrowError(ShardSpecError);
  });

  it('refuses ids and ranges that match no shard of the release, naming them', () => {
    expect(() => selectShardIds(parseShardSpec('2019-01,2017-01..2017-12,2019-04'), RELEASE)).toThrowError(
      /2017-01\.\.2017-12, 2019-04 matches no shard of the release \(it has 7 shards, 2018-12 to 2020-01\)/,
    );
  });

  it('a range holds exactly the shards whose period lies between its ends (property, against a month-by-month model)', () => {
    const month = fc.record({ y: fc.integer({ min: 2018, max: 2020 }), m: fc.integer({ min: 1, max: 12 }) });
    const id = (x: { y: number; m: number }) => `${x.y}-${String(x.m).padStart(2, '0')}`;
    fc.assert(
      fc.property(month, month, month, fc.integer({ min: 0, max: 3 }), (a, b, s, part) => {
        const [lo, hi] = id(a) <= id(b) ? [a, b] : [b, a];
        const shard = part === 0 ? id(s) : `${id(s)}.p00${part}`;
        const n = (x: { y: number; m: number }) => x.y * 12 + x.m;
        expect(specHolds(parseShardSpec(`${id(lo)}..${id(hi)}`), shard)).toBe(n(s) >= n(lo) && n(s) <= n(hi));
        // A year end covers all twelve months of that year.
        expect(specHolds(parseShardSpec(`${lo.y}..${hi.y}`), shard)).toBe(s.y >= lo.y && s.y <= hi.y);
      }),
    );
  });
});
