import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { blockChunks, blockWords, encodeHybrid, PLAIN, RankBits } from './rank-bits.ts';

/** Blocks of bits made of runs (as a news BWT's wavelet nodes are) mixed with noise, in the plain layout. */
const blocksOfBits = fc.array(
  fc.array(fc.oneof(fc.tuple(fc.boolean(), fc.integer({ min: 1, max: 600 })), fc.tuple(fc.boolean(), fc.constant(1))), { maxLength: 60 }),
  { minLength: 1, maxLength: 6 },
).map((blocks) => blocks.map((runs) => runs.flatMap(([bit, n]) => new Array<number>(n).fill(bit ? 1 : 0))));

function plain(blocks: number[][]): Uint32Array {
  const words = new Uint32Array(blocks.reduce((n, b) => n + blockWords(b.length), 0));
  let base = 0;
  for (const b of blocks) {
    b.forEach((bit, i) => {
      if (bit) words[base + (i >>> 5)]! |= 1 << (i & 31);
    });
    base += blockWords(b.length);
  }
  return words;
}

describe('RankBits over hybrid chunks (format 4)', () => {
  it('gives every rank and bit of plain bits, whichever form each chunk took', () => {
    fc.assert(
      fc.property(blocksOfBits, (blocks) => {
        const bits = RankBits.fromWords(plain(blocks), blocks.map((b) => b.length));
        let base = 0;
        for (const b of blocks) {
          let ones = 0;
          for (let i = 0; i < b.length; i++) {
            expect(bits.rankBit(base, i)).toBe(2 * ones + (b[i] as number));
            ones += b[i] as number;
          }
          expect(bits.rank(base, b.length)).toBe(ones);
          base += blockChunks(b.length);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('stores long runs in fewer bytes than plain bits, and never more than a header byte per chunk over them', () => {
    const runs = [new Array<number>(4096).fill(0).map((_, i) => (i < 3000 ? 1 : 0))];
    expect(encodeHybrid(plain(runs), [4096]).length).toBe(blockChunks(4096) + 1); // one boundary, at 3000
    const noise = [Array.from({ length: 4096 }, (_, i) => (i * 2654435761) >>> 31)];
    expect(encodeHybrid(plain(noise), [4096]).length).toBeLessThanOrEqual(blockChunks(4096) * 33);
  });

  it('refuses a stream that is not exactly the chunks the blocks need, or a malformed chunk', () => {
    const stream = encodeHybrid(plain([[1, 0, 1, 1]]), [4]);
    expect(() => new RankBits(stream, [2])).toThrow(RangeError);
    expect(() => new RankBits(Uint8Array.from([...stream, 0]), [1])).toThrow(/past their last chunk/);
    expect(() => new RankBits(Uint8Array.from([200]), [1])).toThrow(/header 200/);
    expect(() => new RankBits(Uint8Array.from([4 << 1, 5, 3, 7, 9]), [1])).toThrow(/do not increase/);
    expect(() => new RankBits(Uint8Array.from([PLAIN, 1, 2]), [1])).toThrow(/past the end/);
  });
});
