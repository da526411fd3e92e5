import { addonWith } from '../suffix-array/index.ts';

/** The addon's zstd (`native/zstd_codec.c`), as far as the metadata store uses it. */
interface Zstd {
  zstdTrain(samples: Uint8Array, sizes: Uint32Array, capacity: number, tuneStride: number): Buffer;
  zstdCompressor(dict: Uint8Array, level: number): object;
  zstdCompress(compressor: object, src: Uint8Array): Promise<Buffer>;
  zstdDecompressor(dict: Uint8Array): object;
  zstdDecompress(decompressor: object, src: Uint8Array, bytes: number): Buffer;
}

const isZstd = (addon: object): addon is Zstd => 'zstdTrain' in addon && 'zstdDecompress' in addon;

function zstd(): Zstd {
  const z = addonWith(isZstd);
  // The build needs the addon anyway (it sorts the suffix arrays), so only a stale build lands here.
  if (!z)
    throw new Error(
      'metadata stores of format 3 are zstd-compressed, which needs the native addon: run `npm run postinstall`',
    );
  return z;
}

/**
 * Level 9 as for the shard text: on the real corpora 67.3 bytes per article against 66.1 at level 19, at a third of
 * the CPU (55 against 165 µs per block). Without a dictionary level 3: zstd then sizes its tables for the level, not
 * for the ~1 KB block, and level 9 spent 20–30 ms per block clearing them (level 3: under 0.5 ms).
 */
const LEVEL = 9;
const LEVEL_WITHOUT_DICTIONARY = 3;
/** The dictionary's largest size: measured on the real corpora (DESIGN.md), larger ones cost more than they gain. */
export const DICTIONARY_BYTES = 32 << 10;
/** The trainer searches its parameters on every 8th block, then trains on all (as the shard text, native/zstd_codec.c). */
const TUNE_STRIDE = 8;

/**
 * A dictionary trained on raw blocks (empty when they are too few or too small for the trainer: blocks are then
 * plain zstd frames). The same blocks give the same dictionary, which the distributed build relies on.
 */
export function trainBlockDictionary(blocks: readonly Buffer[]): Buffer {
  const total = blocks.reduce((s, b) => s + b.length, 0);
  // The trainer refuses a dictionary larger than a fraction of its samples.
  const capacity = Math.min(DICTIONARY_BYTES, Math.floor(total / 16));
  if (blocks.length < 8 || capacity < 1024) return Buffer.alloc(0);
  try {
    return zstd().zstdTrain(
      Buffer.concat(blocks),
      Uint32Array.from(blocks, (b) => b.length),
      capacity,
      TUNE_STRIDE,
    );
  } catch {
    return Buffer.alloc(0); // too uniform for the trainer: nothing for a dictionary to add
  }
}

/** Compresses raw blocks with the dictionary (on the libuv pool). */
export function blockCompressor(dictionary: Uint8Array): (raw: Uint8Array) => Promise<Buffer> {
  const z = zstd();
  const compressor = z.zstdCompressor(dictionary, dictionary.length > 0 ? LEVEL : LEVEL_WITHOUT_DICTIONARY);
  return (raw) => z.zstdCompress(compressor, raw);
}

/** Decodes one block to exactly `bytes` bytes, or throws. */
export function blockDecompressor(dictionary: Uint8Array): (packed: Uint8Array, bytes: number) => Buffer {
  const z = zstd();
  const decompressor = z.zstdDecompressor(dictionary);
  return (packed, bytes) => z.zstdDecompress(decompressor, packed, bytes);
}
