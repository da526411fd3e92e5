import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodeChunkCounts,
  decodeDocGaps,
  decodeGaps,
  encodeChunkCounts,
  encodeDocGaps,
  encodeGaps,
} from './varint-gaps.ts';

const u64 = (positions: readonly number[]): Buffer => {
  const b = Buffer.alloc(positions.length * 8);
  positions.forEach((p, i) => b.writeBigUInt64LE(BigInt(p), i * 8));
  return b;
};

/** Non-decreasing values from 0, gaps from 0 to past 2^35 (varints of 1 to 6 bytes). */
const tables = fc
  .array(fc.oneof(fc.integer({ min: 0, max: 200 }), fc.integer({ min: 0, max: 2 ** 35 })), { maxLength: 300 })
  .map((gaps) => {
    const out: number[] = [];
    for (const g of gaps) out.push(out.length === 0 ? 0 : (out[out.length - 1] as number) + g);
    return out;
  });

describe('varint gaps (compressed format 7)', () => {
  it('round-trip any non-decreasing table, one byte per gap under 128', () => {
    fc.assert(
      fc.property(tables, (values) => {
        const enc = encodeGaps(values);
        expect(Array.from(decodeGaps(enc, values.length, 'test'))).toEqual(values);
        expect(enc.length).toBeLessThanOrEqual(values.length * 6);
        const strict = values.map((v, i) => v + i); // separator positions are strictly increasing
        const textBytes = (strict[strict.length - 1] ?? 0) + 1;
        expect(Array.from(decodeDocGaps(encodeDocGaps(u64(strict)), strict.length, textBytes))).toEqual(strict);
      }),
      { numRuns: 300 },
    );
    expect(encodeGaps([0, 100, 227]).length).toBe(3);
    expect(encodeGaps([0, 100, 228]).length).toBe(4);
  });

  it('round-trip chunk starts, and refuse a decreasing table when writing', () => {
    const starts = Uint32Array.from([0, 7, 7, 14, 300, 300, 4_000_000_000]);
    expect(decodeChunkCounts(encodeChunkCounts(starts), starts.length)).toEqual(starts);
    expect(() => encodeGaps([0, 5, 4])).toThrow(/entry 2 \(4\) is below the one before \(5\)/);
  });

  it('refuse a table with a gap cut short, bytes left over, another count or a value past its limit', () => {
    const enc = encodeDocGaps(u64([0, 300, 700]));
    expect(() => decodeDocGaps(enc.subarray(0, enc.length - 1), 3, 1000)).toThrow(
      /document table ends in entry 2 of 3/,
    );
    expect(() => decodeDocGaps(Buffer.concat([enc, Buffer.from([1])]), 3, 1000)).toThrow(/1 bytes after its 3/);
    expect(() => decodeDocGaps(enc, 4, 1000)).toThrow(/ends in entry 3 of 4/);
    expect(() => decodeDocGaps(enc, 3, 700)).toThrow(/entry 2 of the document table is 700, past its limit 700/);
    expect(() => decodeGaps(Buffer.alloc(9, 0xff), 1, 'test')).toThrow(/longer than a text position/);
    expect(() => decodeChunkCounts(encodeGaps([0, 2 ** 32]), 2)).toThrow(/past its limit/);
  });
});
