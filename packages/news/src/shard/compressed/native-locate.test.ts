import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { ShardFormatError } from '../errors.ts';
import { createShardWriter, indexCompressedShard, openShard } from '../index.ts';
import { buildSuffixArray } from '../../suffix-array/index.ts';
import { buildFm } from './fm-build.ts';
import { FmIndex } from './fm-index.ts';
import { HYBRID_BITS_FILE, type CompressedHeader } from './format.ts';
import { readShardTable } from './open.ts';
import { packTable } from './packed-tables.ts';
import { NativeLocator } from './native-locate.ts';
import { chunkBytes, PLAIN } from './rank-bits.ts';
import { RRR } from './rrr-chunk.ts';
import { walkToSample } from './reader.ts';
import { SaSamples } from './sa-samples.ts';

interface Built {
  readonly fm: FmIndex;
  readonly samples: SaSamples;
  readonly native: NativeLocator;
  /** The true suffix array, rank → text position. */
  readonly sa: Int32Array;
}

/** The FM-index and samples of `text` exactly as the indexer builds them, with the C locator over them. */
async function build(text: Uint8Array, blockSymbols: number, sampleRate: number): Promise<Built> {
  const sorted = await buildSuffixArray(text);
  const sa = new Int32Array(sorted.buffer.slice(sorted.byteOffset, sorted.byteOffset + 4 * text.length));
  const built = await buildFm(text, new Int32Array(sorted.buffer, sorted.byteOffset, text.length), {
    blockSymbols,
    sampleRate,
  });
  const fm = new FmIndex(built.parts);
  const s = built.samples;
  const samples = new SaSamples(s.chunkStart, s.rowLow, s.values, sampleRate, text.length);
  const native = NativeLocator.open(fm, samples);
  if (native === undefined) throw new Error('the addon has no fmOpen: rebuild it (npm run postinstall)');
  return { fm, samples, native, sa };
}

/** Mostly one byte: biased wavelet bits without long runs, which the builder stores as RRR chunks. */
const skewed = (length: number, seed: number): Uint8Array => {
  let s = seed >>> 0;
  return Uint8Array.from({ length }, () => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    const v = (s >>> 16) % 20;
    return v < 17 ? 97 : v === 17 ? 0 : v === 18 ? 98 : 255;
  });
};

/** Texts of few distinct bytes (long repeats, deep wavelet trees in few symbols), mostly one byte, and of any bytes. */
const text = fc.oneof(
  fc.uint8Array({ minLength: 1, maxLength: 600 }),
  fc.array(fc.constantFrom(0, 1, 97, 255), { minLength: 1, maxLength: 600 }).map((a) => Uint8Array.from(a)),
  fc.tuple(fc.integer({ min: 1, max: 2000 }), fc.integer()).map(([n, seed]) => skewed(n, seed)),
);
const params = fc.record({
  blockSymbols: fc.constantFrom(2, 16, 64, 1 << 15),
  sampleRate: fc.constantFrom(1, 2, 4, 64),
});

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('native locate (native/fm_locate.c)', () => {
  it('equals the TypeScript walk and the suffix array on random shards, one by one and batched', async () => {
    await fc.assert(
      fc.asyncProperty(text, params, async (t, p) => {
        const { fm, samples, native, sa } = await build(t, p.blockSymbols, p.sampleRate);
        // The batch walks interleave (native/fm_locate.c locate_many): every row, backwards, with invalid rows
        // between them, so lanes finish out of order and are refilled.
        const rows = Float64Array.from({ length: 2 * t.length }, (_, k) => (k % 2 === 1 ? 0.5 : t.length - k / 2));
        const batch = native.positions(rows);
        for (let r = 0; r < t.length; r++) {
          const expected = sa[r] as number;
          expect(walkToSample(fm, samples, r + 1)).toBe(expected);
          expect(native.position(r + 1)).toBe(expected);
          expect(batch[2 * (t.length - 1 - r)]).toBe(expected);
          expect(batch[2 * (t.length - 1 - r) + 1]).toBe(-1);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('walks and searches RRR chunks (format 5) exactly as the TypeScript reader', async () => {
    const t = skewed(20_000, 3);
    const { fm, samples, native, sa } = await build(t, 1 << 15, 16);
    const arrays = fm.arrays();
    let rrr = 0;
    for (let j = 1; j < arrays.dir.length; j += 2) if ((arrays.dir[j] as number) >>> 24 === RRR) rrr++;
    expect(rrr).toBeGreaterThan(10);
    for (let r = 0; r < t.length; r++) {
      expect(native.position(r + 1)).toBe(sa[r] as number);
      if (r % 97 === 0) expect(walkToSample(fm, samples, r + 1)).toBe(sa[r] as number);
    }
    for (let k = 0; k < 300; k++) {
      const q = t.subarray(k * 61, k * 61 + 1 + (k % 9));
      expect(native.count(q)).toBe(fm.count(q));
    }
  });

  it('searches exactly as the TypeScript backward search, for present, absent and any-byte queries', async () => {
    await fc.assert(
      fc.asyncProperty(
        text,
        params,
        fc.array(fc.uint8Array({ minLength: 0, maxLength: 8 }), { maxLength: 10 }),
        async (t, p, extra) => {
          const { fm, native } = await build(t, p.blockSymbols, p.sampleRate);
          // Substrings of the text (present) plus arbitrary bytes (mostly absent).
          const queries = [
            ...Array.from({ length: 10 }, (_, k) => t.subarray(k % t.length, (k % t.length) + 1 + (k % 6))),
            ...extra,
          ];
          for (const q of queries) {
            const found = fm.search(q);
            expect(native.search(q)).toEqual(found);
            // count stops at the first empty interval; the count is still the interval's size.
            expect(fm.count(q)).toBe(found.ep - found.sp);
            expect(native.count(q)).toBe(found.ep - found.sp);
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('answers −1 for a row outside [1, rows) or not an integer, alone and in a batch', async () => {
    const { native } = await build(Buffer.from([...Buffer.from('banana'), 0xff, ...Buffer.from('bandana')]), 16, 4);
    const bad = [0, -1, 15, 16, 1.5, Number.NaN, Infinity, 2 ** 53];
    for (const row of bad) expect(native.position(row)).toBe(-1);
    expect([...native.positions(Float64Array.from(bad))]).toEqual(bad.map(() => -1));
    expect(native.position(14)).toBeGreaterThanOrEqual(0); // the last row: 14 text bytes, rows 1–14
  });

  it('never reads outside the arrays of a damaged index: every answer is −1 or a text position', async () => {
    await fc.assert(
      fc.asyncProperty(
        text,
        params,
        fc.array(fc.tuple(fc.nat(), fc.nat()), { minLength: 1, maxLength: 20 }),
        async (t, p, flips) => {
          const { fm, native } = await build(t, p.blockSymbols, p.sampleRate);
          const a = fm.arrays();
          // Damage the rank directory and the bits in place (the locator reads these very arrays): offsets and
          // headers that lead anywhere, run boundaries out of order.
          for (const [at, bits] of flips) {
            if (at % 2 === 0) a.dir[at % a.dir.length] = bits;
            else if (a.stream.length > 0) a.stream[at % a.stream.length] = bits & 255;
          }
          for (let row = 1; row <= t.length; row++) {
            const pos = native.position(row);
            expect(Number.isInteger(pos) && pos >= -1 && pos < t.length).toBe(true);
          }
          // A search over damaged bits gives an interval inside the rows, or undefined: never a wild read.
          const found = native.search(t.subarray(0, 3));
          if (found !== undefined) expect(found.sp >= 0 && found.sp <= found.ep && found.ep <= t.length + 1).toBe(true);
          const rows = native.count(t.subarray(0, 3));
          expect(Number.isInteger(rows) && rows >= -1 && rows <= t.length + 1).toBe(true);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('makes the reader throw ShardFormatError, not hang or crash, on a shard whose wavelet bits were overwritten', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'fm-native-'));
    dirs.push(dir);
    const writer = createShardWriter(dir);
    for (let d = 0; d < 40; d++) writer.append(Buffer.from(`article ${d}: the quick brown fox ${d * 7} jumps`));
    await writer.finish();
    await indexCompressedShard(dir, {}, { blockSymbols: 64, sampleRate: 16, textBlockBytes: 256, brotliQuality: 1 });
    const bits = path.join(dir, HYBRID_BITS_FILE);
    const headerFile = path.join(dir, 'header.json');
    const header = JSON.parse(readFileSync(headerFile, 'utf8')) as CompressedHeader;
    const stored = readShardTable(dir, header, 'bits');
    const codec = header.packedTables?.codec ?? 'zstd';
    writeFileSync(bits, await packTable(Buffer.alloc(stored.length, 0xa5), codec, 'bits'));
    const rewrite = (bytes: number): void =>
      writeFileSync(
        headerFile,
        JSON.stringify({
          ...header,
          files: { ...header.files, bits: { ...header.files.bits, bytes: statSync(bits).size } },
          packedTables: { codec, bytes: { ...header.packedTables?.bytes, bits: bytes } },
        }),
      );
    rewrite(stored.length);
    expect(() => openShard(dir, 'memory')).toThrow(ShardFormatError); // 0xa5 is no chunk header
    // The same chunks, each plain with every bit overwritten: well formed, so open's checks pass; wrong bits.
    let chunks = 0;
    for (let at = 0; at < stored.length; chunks++) at += chunkBytes(stored, at, true);
    const damaged = Buffer.concat(
      Array.from({ length: chunks }, () => Buffer.from([PLAIN, ...new Array<number>(32).fill(0xa5)])),
    );
    writeFileSync(bits, await packTable(damaged, codec, 'bits'));
    rewrite(damaged.length); // as if built so: only the bits are wrong
    const reader = openShard(dir, 'memory');
    let refused = 0;
    for (let rank = 0; rank < reader.stats.textBytes; rank++) {
      try {
        const { pos } = reader.locate(rank);
        expect(pos >= 0 && pos < reader.stats.textBytes).toBe(true);
      } catch (e) {
        expect(e).toBeInstanceOf(ShardFormatError);
        refused++;
      }
    }
    reader.close();
    expect(refused).toBeGreaterThan(0);
  });
});
