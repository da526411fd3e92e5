import { constants } from 'node:buffer';
import { loadDivsufsort, type SuffixSorter } from './native.ts';

export { NativeAddonMissingError, type SuffixSorter } from './native.ts';

/**
 * The whole addon module (one native build for the package) when it is built and `has` the functions a caller needs,
 * else undefined: the compressed shard kind finds its locate walk, backward search and build passes on it
 * (`src/shard/compressed/native-*.ts`) and falls back to TypeScript without them.
 */
export function addonWith<T extends object>(has: (addon: object) => addon is T): T | undefined {
  try {
    const addon: object = loadDivsufsort();
    return has(addon) ? addon : undefined;
  } catch {
    return undefined; // not built (NativeAddonMissingError)
  }
}

/** The sorters this build of the addon holds, the default first (libdivsufsort when it was installed, else SA-IS). */
export function availableSorters(): readonly SuffixSorter[] {
  return loadDivsufsort().sorters;
}

/** The sorter `buildSuffixArray` uses unless told otherwise. */
export function defaultSorter(): SuffixSorter {
  return availableSorters()[0] ?? 'sais';
}

/**
 * Peak RAM per text byte of one sort: text + the 4-byte suffix array, plus SA-IS's bucket counters of the first
 * reduced level (≤ 4 bytes per LMS name, at most n/2 names; about n/8 on natural text) and its n/8 type bitmap.
 */
export const SORT_BYTES_PER_TEXT_BYTE: Readonly<Record<SuffixSorter, number>> = { divsufsort: 5, sais: 5.5 };

/**
 * Largest text the suffix sort accepts: both sorters index with signed int32, so n < 2^31.
 * Shards above this are refused before sorting (see src/shard/sa/DESIGN.md for the plan beyond it).
 */
export const MAX_SUFFIX_ARRAY_TEXT_BYTES = 2 ** 31 - 1;

/**
 * Largest text `buildSuffixArray` can sort here: its 4-byte suffix array is one Node Buffer, and a Buffer holds at
 * most `buffer.constants.MAX_LENGTH` bytes (2^32 on 64-bit Node 20), so n ≤ 2^30 — below the sorters' 2^31 − 1.
 * The release builder caps its part size at this (a 1.34 GB part once died after the whole read, allocating 5.4 GB).
 */
export const MAX_SORT_TEXT_BYTES = Math.min(MAX_SUFFIX_ARRAY_TEXT_BYTES, Math.floor(constants.MAX_LENGTH / 4));

/**
 * Builds the byte-level suffix array of `text`: 4-byte little-endian pointers, `SA[r]` = start of the r-th
 * smallest suffix. The sort runs on the libuv thread pool (native: libdivsufsort or our SA-IS, `sorter` picks one of
 * availableSorters()), so several calls run in parallel. Peak memory is about text + 4 × text
 * (SORT_BYTES_PER_TEXT_BYTE); pass `out` (4 × text.length bytes) to sort into your own buffer.
 *
 * @example
 *   const sa = await buildSuffixArray(Buffer.from('banana'));
 *   new Int32Array(sa.buffer, sa.byteOffset, 6); // [5, 3, 1, 0, 4, 2]
 */
export async function buildSuffixArray(text: Uint8Array, out?: Buffer, sorter?: SuffixSorter): Promise<Buffer> {
  if (text.length > MAX_SORT_TEXT_BYTES) {
    throw new RangeError(
      `buildSuffixArray: ${text.length} bytes exceed the ${MAX_SORT_TEXT_BYTES}-byte limit (its suffix array must fit one Buffer)`,
    );
  }
  const bytes = text.length * 4;
  if (out && out.length !== bytes) {
    throw new RangeError(`buildSuffixArray: out has ${out.length} bytes, needs exactly ${bytes}`);
  }
  // A fresh allocUnsafeSlow buffer owns its ArrayBuffer, so it is 4-byte aligned (pooled small Buffers may not be).
  const target = out && out.byteOffset % 4 === 0 ? out : Buffer.allocUnsafeSlow(bytes);
  // V8 may keep tiny typed arrays on its heap, where GC can move them during the sort: copy those off-heap.
  const input = text.length <= 4096 ? Buffer.from(text) : text;
  await loadDivsufsort().sortSuffixes(input, target, sorter);
  if (out && target !== out) target.copy(out);
  return out ?? target;
}

/** Reads pointer `rank` of a 4-byte suffix array buffer. */
export function suffixAt(sa: Buffer, rank: number): number {
  return sa.readUInt32LE(rank * 4);
}
