import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ALPHABET } from './huffman.ts';
import {
  chunkStartsBytes,
  chunkStartsProblem,
  decodeBlockSymbols,
  decodeChunkStarts,
  encodeBlockSymbols,
  encodeChunkStarts,
} from './stored-tables.ts';

/** Blocks of 256 counts (u16, at least one non-zero per block) and 256 lengths (non-zero only where counted). */
const symbolTables = fc.integer({ min: 1, max: 6 }).chain((blocks) =>
  fc
    .array(
      fc.tuple(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 1, max: 0xffff }), fc.integer({ min: 0, max: 27 })),
      { minLength: blocks, maxLength: blocks * 40 },
    )
    .map((entries) => {
      const counts = new Uint16Array(blocks * ALPHABET);
      const lengths = new Uint8Array(blocks * ALPHABET);
      entries.forEach(([c, n, len], i) => {
        const b = i % blocks;
        counts[b * ALPHABET + c] = n;
        lengths[b * ALPHABET + c] = len;
      });
      return { blocks, counts, lengths };
    }),
);

/** Non-decreasing chunk starts as the build writes them: at most 256 samples per 256-row chunk. */
const chunkStartLists = fc
  .array(fc.integer({ min: 0, max: 256 }), { minLength: 0, maxLength: 1200 })
  .map((perChunk) => {
    const starts = new Uint32Array(perChunk.length + 1);
    perChunk.forEach((n, j) => (starts[j + 1] = (starts[j] as number) + n));
    return starts;
  });

describe('compact stored tables (compressed format version 3)', () => {
  it('block symbols: decode(encode(table)) is the table, in 32 + 3k bytes per block', () => {
    fc.assert(
      fc.property(symbolTables, ({ blocks, counts, lengths }) => {
        const bytes = encodeBlockSymbols(counts, lengths);
        expect(bytes.length).toBe(32 * blocks + 3 * counts.filter((n) => n > 0).length);
        const back = decodeBlockSymbols(bytes, blocks);
        expect(back.counts).toEqual(counts);
        expect(back.lengths).toEqual(lengths);
      }),
    );
  });

  it('block symbols: a cut, padded or empty table is refused with the reason', () => {
    fc.assert(
      fc.property(symbolTables, fc.integer({ min: 1, max: 40 }), ({ blocks, counts, lengths }, cut) => {
        const bytes = encodeBlockSymbols(counts, lengths);
        expect(() => decodeBlockSymbols(bytes.subarray(0, Math.max(0, bytes.length - cut)), blocks)).toThrow(
          /ends in block|cut short|empty/,
        );
        expect(() => decodeBlockSymbols(Buffer.concat([bytes, Buffer.alloc(cut)]), blocks)).toThrow(
          /bytes after its|empty/,
        );
      }),
    );
    expect(() => decodeBlockSymbols(Buffer.alloc(32), 1)).toThrow(/block 0 of the symbol table is empty/);
    const zero = Buffer.alloc(35);
    zero[0] = 1; // byte 0 listed, its count left 0
    expect(() => decodeBlockSymbols(zero, 1)).toThrow(/lists byte 0 with count 0/);
  });

  it('chunk starts: decode(encode(starts)) is the starts, in 2 bytes per entry + 4 per 256 entries', () => {
    fc.assert(
      fc.property(chunkStartLists, (starts) => {
        const bytes = encodeChunkStarts(starts);
        expect(bytes.length).toBe(chunkStartsBytes(starts.length));
        expect(decodeChunkStarts(bytes, starts.length)).toEqual(starts);
        expect(chunkStartsProblem(starts, starts[starts.length - 1] as number)).toBeUndefined();
      }),
    );
  });

  it('chunk starts: the largest gap a 256-entry span allows still fits; a wrong size or shape is refused', () => {
    const full = new Uint32Array(257).map((_, j) => 256 * j); // every row sampled: 65,280 samples before entry 255
    expect(decodeChunkStarts(encodeChunkStarts(full), full.length)).toEqual(full);
    expect(() => decodeChunkStarts(Buffer.alloc(12), 3)).toThrow(/take 12 bytes, expected 10/);
    expect(chunkStartsProblem(Uint32Array.of(1, 2), 2)).toMatch(/sample 0/);
    expect(chunkStartsProblem(Uint32Array.of(0, 3, 2), 2)).toMatch(/chunk 2 starts before chunk 1/);
    expect(chunkStartsProblem(Uint32Array.of(0, 2), 3)).toMatch(/hold 2 samples, expected 3/);
  });
});
