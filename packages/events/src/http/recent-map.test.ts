import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { RecentMap } from './recent-map.ts';

describe('RecentMap', () => {
  it('holds at most its bound, and always the latest value of every key set in the last half-bound inserts', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 40 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 60 }), fc.integer())),
        (max, sets) => {
          const map = new RecentMap<number, number>(max);
          const latest = new Map<number, { value: number; at: number }>();
          sets.forEach(([k, v], at) => {
            map.set(k, v);
            latest.set(k, { value: v, at });
          });
          let held = 0;
          for (const [k, { value, at }] of latest) {
            const got = map.get(k);
            if (got !== undefined) {
              held++;
              expect(got).toBe(value);
            }
            if (at >= sets.length - Math.floor(max / 2)) expect(got).toBe(value);
          }
          expect(held).toBeLessThanOrEqual(max);
        },
      ),
    );
  });
});
