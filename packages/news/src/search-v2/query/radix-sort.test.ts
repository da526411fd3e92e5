import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sortPositions } from './radix-sort.ts';

describe('sorting located positions', () => {
  it('orders any positions below their bound as a comparison sort does (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 ** 32 }),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 3000 }),
        (bound, fractions) => {
          const values = Uint32Array.from(fractions, (f) => Math.min(bound - 1, Math.floor(f * bound)));
          const expected = [...values].sort((a, b) => a - b);
          expect([...sortPositions(values, bound)]).toEqual(expected);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('sorts positions that need every byte, and repeated ones', () => {
    const values = Uint32Array.from({ length: 5000 }, (_, i) => (2 ** 32 - 1 - i * 858_993) >>> 0 || 7);
    values[10] = 7;
    expect([...sortPositions(values.slice(), 2 ** 32)]).toEqual([...values].sort((a, b) => a - b));
  });
});
