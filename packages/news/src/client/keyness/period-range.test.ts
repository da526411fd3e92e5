import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  defaultRanges,
  describeRange,
  formatRange,
  parseRange,
  periodsOfShards,
  rangePeriods,
} from './period-range.ts';

describe('period ranges of the keyness view', () => {
  it('reads the periods of a release from its shard ids, parts merged, chronological', () => {
    expect(periodsOfShards(['2024-03.1', '2016-05', '2024-03.2', '2024-01'])).toEqual([
      '2016-05',
      '2024-01',
      '2024-03',
    ]);
  });

  it('covers the periods from one end to the other, none when reversed or unknown', () => {
    const all = ['2024-01', '2024-02', '2024-03', '2024-05'];
    expect(rangePeriods(all, { from: '2024-02', to: '2024-05' })).toEqual(['2024-02', '2024-03', '2024-05']);
    expect(rangePeriods(all, { from: '2024-03', to: '2024-01' })).toEqual([]);
    expect(rangePeriods(all, { from: '2023-01', to: '2024-01' })).toEqual([]);
  });

  it('starts with the newest period against the ones before it', () => {
    expect(defaultRanges(['2024-01', '2024-02', '2024-03'])).toEqual({
      a: { from: '2024-03', to: '2024-03' },
      b: { from: '2024-01', to: '2024-02' },
    });
    expect(defaultRanges(['2024-01'])).toBeNull();
  });

  it('round-trips a range through the URL and rejects anything else', () => {
    const period = fc
      .tuple(fc.integer({ min: 1900, max: 2200 }), fc.option(fc.integer({ min: 1, max: 12 })))
      .map(([y, m]) => (m === null ? String(y) : `${y}-${String(m).padStart(2, '0')}`));
    fc.assert(
      fc.property(period, period, (from, to) => {
        expect(parseRange(formatRange({ from, to }))).toEqual({ from, to });
      }),
    );
    expect(parseRange('2024-01;drop')).toBeNull();
    expect(parseRange(null)).toBeNull();
    expect(describeRange({ from: '2024-01', to: '2024-03' })).toBe('2024-01 to 2024-03');
  });
});
