import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { blockChunks, blockWords, encodeHybrid, PLAIN, RankBits } from './rank-bits.ts';
import { RRR } from './rrr-chunk.ts';

/** Blocks of bits made of runs (as a news BWT's wavelet nodes are) mixed with noise, in the plain layout. */
const blocksOfBits = fc
  .array(
    fc.array(
      fc.oneof(fc.tuple(fc.boolean(), fc.integer({ min: 1, max: 600 })), fc.tuple(fc.boolean(), fc.constant(1))),
      { maxLength: 60 },
    ),
    { minLength: 1, maxLength: 6 },
  )
  .map((blocks) => blocks.map((runs) => runs.flatMap(([bit, n]) => new Array<number>(n).fill(bit ? 1 : 0))));

/** Blocks of biased noise (ones with probability 1/16 to 1/2, or zeros so): dense chunks, the RRR form's case. */
const biasedBlocks = fc
  .array(
    fc.tuple(
      fc.integer({ min: 2, max: 16 }),
      fc.boolean(),
      fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 1, maxLength: 1200 }),
    ),
    { minLength: 1, maxLength: 4 },
  )
  .map((blocks) => blocks.map(([odds, flip, noise]) => noise.map((v) => ((v % odds === 0) !== flip ? 1 : 0))));

/** Checks every rank and bit of `blocks` against a naive count, through RankBits over their hybrid stream. */
function expectRanks(bits: RankBits, blocks: number[][]): void {
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
}

/** The header byte of every chunk of a one-block stream. */
function headers(stream: Uint8Array, chunks: number): number[] {
  const bits = new RankBits(stream, [chunks], true);
  return Array.from({ length: chunks }, (_, j) => (bits.dir[2 * j + 1] as number) >>> 24);
}

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

describe('RankBits over hybrid chunks (format 4; RRR chunks since 5)', () => {
  it('gives every rank and bit of plain bits, whichever form each chunk took', () => {
    fc.assert(
      fc.property(blocksOfBits, (blocks) =>
        expectRanks(
          RankBits.fromWords(
            plain(blocks),
            blocks.map((b) => b.length),
          ),
          blocks,
        ),
      ),
      { numRuns: 60 },
    );
  });

  it('gives every rank and bit of dense biased bits, in RRR chunks or without them (format 4)', () => {
    fc.assert(
      fc.property(biasedBlocks, (blocks) => {
        const lengths = blocks.map((b) => b.length);
        expectRanks(RankBits.fromWords(plain(blocks), lengths), blocks);
        expectRanks(new RankBits(encodeHybrid(plain(blocks), lengths, false), lengths.map(blockChunks), false), blocks);
      }),
      { numRuns: 80 },
    );
  });

  it('stores a chunk as RRR only when that saves at least 5 bytes over its runs and plain bits', () => {
    // 4 ones per 32 bits, spread: 64 run boundaries (too many), 32 plain bytes, RRR 6 + 8 × 16 bits = 22 bytes
    const sparse = [Array.from({ length: 256 }, (_, i) => (i % 8 === 3 ? 1 : 0))];
    expect(headers(encodeHybrid(plain(sparse), [256]), 2)).toEqual([RRR, 0]);
    expect(encodeHybrid(plain(sparse), [256]).length).toBe(1 + 22 + 1);
    expect(encodeHybrid(plain(sparse), [256], false).length).toBe(1 + 32 + 1);
    // 10 ones per 32 bits: RRR 6 + 8 × 26 bits = 32 bytes saves nothing, so it stays plain
    const denser = [
      Array.from({ length: 256 }, (_, i) => ([0, 3, 6, 9, 12, 15, 18, 21, 24, 27].includes(i % 32) ? 1 : 0)),
    ];
    expect(headers(encodeHybrid(plain(denser), [256]), 2)[0]).toBe(PLAIN);
    // noise at one half: RRR would take 6 + 8 × 30 bits = 36 bytes, so it stays plain
    const noise = [Array.from({ length: 256 }, (_, i) => (i * 2654435761) >>> 31)];
    expect(headers(encodeHybrid(plain(noise), [256]), 2)[0]).toBe(PLAIN);
  });

  it('stores long runs in fewer bytes than plain bits, and never more than a header byte per chunk over them', () => {
    const runs = [new Array<number>(4096).fill(0).map((_, i) => (i < 3000 ? 1 : 0))];
    expect(encodeHybrid(plain(runs), [4096]).length).toBe(blockChunks(4096) + 1); // one boundary, at 3000
    const noise = [Array.from({ length: 4096 }, (_, i) => (i * 2654435761) >>> 31)];
    expect(encodeHybrid(plain(noise), [4096]).length).toBeLessThanOrEqual(blockChunks(4096) * 33);
  });

  it('refuses a stream that is not exactly the chunks the blocks need, or a malformed chunk', () => {
    const stream = encodeHybrid(plain([[1, 0, 1, 1]]), [4]);
    expect(() => new RankBits(stream, [2], true)).toThrow(RangeError);
    expect(() => new RankBits(Uint8Array.from([...stream, 0]), [1], true)).toThrow(/past their last chunk/);
    expect(() => new RankBits(Uint8Array.from([200]), [1], true)).toThrow(/header 200/);
    expect(() => new RankBits(Uint8Array.from([4 << 1, 5, 3, 7, 9]), [1], true)).toThrow(/do not increase/);
    expect(() => new RankBits(Uint8Array.from([PLAIN, 1, 2]), [1], true)).toThrow(/past the end/);
  });

  it('refuses an RRR chunk in a format-4 stream, and a malformed one in any', () => {
    const sparse = [Array.from({ length: 100 }, (_, i) => (i % 8 === 3 ? 1 : 0))];
    const stream = encodeHybrid(plain(sparse), [100]);
    expect(stream[0]).toBe(RRR);
    expect(() => new RankBits(stream, [1], false)).toThrow(/header 254/);
    // class 33 in the first sub-block (6 bits: 33 = 0b100001)
    expect(() => new RankBits(Uint8Array.from([RRR, 33, 0, 0, 0, 0, 0]), [1], true)).toThrow(/malformed RRR/);
    // class 1 with offset 32 (≥ C(32, 1)): 5 offset bits cannot hold it, so class 2 (offset bits 9) with offset 496 = C(32, 2)
    expect(() => new RankBits(Uint8Array.from([RRR, 2, 0, 0, 0, 0, 0, 496 & 255, 496 >> 8]), [1], true)).toThrow(
      /malformed RRR/,
    );
    expect(() => new RankBits(stream.subarray(0, stream.length - 1), [1], true)).toThrow(/malformed RRR/);
  });
});
