import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeWordCounts, encodeWordCounts, tableOfCounts, WordCountsFormatError } from './format.ts';

const countsArb = fc
  .dictionary(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }), fc.integer({ min: 1, max: 2 ** 40 }), {
    maxKeys: 200,
  })
  .map((d) => new Map(Object.entries(d)));

describe('word-count table format', () => {
  it('gives back every word at or over the floor with its count, and the totals of all words', () => {
    fc.assert(
      fc.property(countsArb, fc.integer({ min: 1, max: 3 }), (counts, floor) => {
        const back = decodeWordCounts(encodeWordCounts(tableOfCounts(counts, floor)));
        const kept = [...counts].filter(([, n]) => n >= floor).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
        expect(back.words).toEqual(kept.map(([w]) => w));
        expect([...back.counts]).toEqual(kept.map(([, n]) => n));
        expect(back.tokens).toBe([...counts.values()].reduce((a, b) => a + b, 0));
        expect(back.types).toBe(counts.size);
        expect(back.floor).toBe(floor);
      }),
    );
  });

  it('refuses foreign bytes and another format version with a clear error', () => {
    const good = encodeWordCounts(tableOfCounts(new Map([['oil', 2]]), 1));
    expect(() => decodeWordCounts(Buffer.from('not a table'))).toThrow(WordCountsFormatError);
    const future = Buffer.from(good);
    future[4] = 99;
    expect(() => decodeWordCounts(future, 'w.nwc')).toThrow(/w.nwc has word-count format 99, this build reads 1/);
    expect(() => decodeWordCounts(good.subarray(0, good.length - 3))).toThrow(WordCountsFormatError);
  });
});
