import { promisify } from 'node:util';
import { brotliCompress, brotliDecompressSync, constants } from 'node:zlib';
import type { DataFile } from './format.ts';
import { loadZstd } from './text-codec.ts';

/**
 * Format version 8 (DESIGN.md "Packed tables"): the tables that open reads whole into RAM anyway are stored as one
 * compressed frame each and expanded on open, so nothing in RAM and no walk changes. The wavelet bits' hybrid chunks
 * still hold skewed plain chunks and repeated headers that a general-purpose coder finds (−6 % of `fm-bits.hyb` on
 * real news), the text dictionary is text (−64 %), the symbol table and the varint tables are small integers.
 * Left as they are: the text blocks (already zstd), the sample rows and values (bit-packed, incompressible).
 */
export const PACKED_TABLES: readonly DataFile[] = ['docOffsets', 'symbols', 'bits', 'sampleChunks', 'textDict'];

/** zstd through the addon; brotli (node:zlib) on a machine without it, as for the text blocks. */
export type TableCodec = 'zstd' | 'brotli';
export const TABLE_CODECS: readonly TableCodec[] = ['zstd', 'brotli'];

/** How a version-8 header records its packed tables: the codec and each table's unpacked size. */
export interface PackedTablesInfo {
  readonly codec: TableCodec;
  readonly bytes: Readonly<Partial<Record<DataFile, number>>>;
}

/**
 * Levels, measured on the real corpora as one month (DESIGN.md "Packed tables"). The wavelet bits (0.2–0.25 of the
 * text, hundreds of MB in a 1 GiB part) get a fast level: zstd 3 keeps 80 % of level 19's gain at a small fraction
 * of its time. The other tables get the strongest level from 64 KiB to 1 MiB (the text dictionary, a large shard's
 * symbol table and chunk counts: −15 % against level 3, ≤ ~0.3 s CPU each); below that zstd 19's set-up (~0.1 s CPU
 * whatever the input) would cost every small shard (a headline index, a test's) more than it saves, above it the time.
 */
const STRONG_TABLE_BYTES: readonly [number, number] = [64 << 10, 1 << 20];
function level(codec: TableCodec, key: DataFile, bytes: number): number {
  const strong = key !== 'bits' && bytes >= STRONG_TABLE_BYTES[0] && bytes <= STRONG_TABLE_BYTES[1];
  return codec === 'zstd' ? (strong ? 19 : 3) : strong ? 11 : 5;
}

const brotli = promisify(brotliCompress);

/** The codec a build packs its tables with: zstd when the addon is built. */
export const buildTableCodec = (): TableCodec => (loadZstd() === undefined ? 'brotli' : 'zstd');

/** One table as one frame (same input, same bytes: the distributed build compares parts byte for byte). */
export async function packTable(raw: Uint8Array, codec: TableCodec, key: DataFile): Promise<Buffer> {
  if (codec === 'brotli')
    return brotli(raw, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: level(codec, key, raw.length),
        [constants.BROTLI_PARAM_LGWIN]: 24,
        [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
      },
    });
  const zstd = loadZstd();
  if (!zstd) throw new Error('zstd-packed tables need the native addon: run `npm run postinstall`');
  return zstd.zstdCompress(zstd.zstdCompressor(new Uint8Array(0), level(codec, key, raw.length)), raw);
}

/** A packed table back to exactly `bytes` bytes, or throws (the caller names the file). */
export function unpackTable(packed: Uint8Array, codec: TableCodec, bytes: number): Buffer {
  if (codec === 'brotli') {
    const raw = brotliDecompressSync(packed, { maxOutputLength: Math.max(1, bytes) });
    if (raw.length !== bytes) throw new RangeError(`unpacks to ${raw.length} bytes, expected ${bytes}`);
    return raw;
  }
  const zstd = loadZstd();
  if (!zstd)
    throw new Error('this shard packs its tables with zstd, which needs the native addon: run `npm run postinstall`');
  // An empty table is an empty frame whose content size zstd records as 0.
  return zstd.zstdDecompress(zstd.zstdDecompressor(new Uint8Array(0)), packed, bytes);
}
