/**
 * Non-decreasing tables stored as LEB128 varints of their gaps (compressed format 7, DESIGN.md "Version 7"): each
 * value minus the one before, the first minus 0. Readers expand them on open to the arrays they always held in RAM,
 * so the walk, the search and their C versions are unchanged; only the files shrink.
 *
 * - **Document table** (`docs.gaps`): each article's separator position. Articles of 1–3 KB take 2 bytes a gap and
 *   headlines one, against 8 in `docs.u64`.
 * - **Sample chunk starts** (`sa-counts.bin`): the index of the first sample of every 256 FM rows, i.e. the samples
 *   per chunk, about 256 / rate: one byte a chunk against two in version 3's `sa-chunks.bin`.
 */

/** Varint bytes of the gaps of `values` (non-decreasing, each below 2^53). */
export function encodeGaps(values: ArrayLike<number>): Buffer {
  const out = Buffer.allocUnsafe(values.length * 8 + 8);
  let at = 0;
  let prev = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as number;
    // Arithmetic, not bit operations: text positions pass 2^31.
    let gap = v - prev;
    if (!(gap >= 0)) throw new RangeError(`entry ${i} (${v}) is below the one before (${prev})`);
    prev = v;
    while (gap >= 0x80) {
      out[at++] = (gap % 0x80) | 0x80;
      gap = Math.floor(gap / 0x80);
    }
    out[at++] = gap;
  }
  return Buffer.from(out.subarray(0, at));
}

/**
 * The `count` values of varint gaps. Throws a RangeError saying what is wrong when the bytes hold another number of
 * gaps, a varint is cut short or longer than a text position, or a value passes `limit` (exclusive).
 */
export function decodeGaps(bytes: Uint8Array, count: number, what: string, limit = 2 ** 53): Float64Array {
  const out = new Float64Array(count);
  let at = 0;
  let value = 0;
  for (let i = 0; i < count; i++) {
    let gap = 0;
    let scale = 1;
    for (;;) {
      if (at >= bytes.length) throw new RangeError(`the ${what} table ends in entry ${i} of ${count}`);
      const b = bytes[at++] as number;
      gap += (b & 0x7f) * scale;
      if (b < 0x80) break;
      scale *= 0x80;
      if (scale > 2 ** 49) throw new RangeError(`entry ${i} of the ${what} table is longer than a text position`);
    }
    value += gap;
    if (value >= limit) throw new RangeError(`entry ${i} of the ${what} table is ${value}, past its limit ${limit}`);
    out[i] = value;
  }
  if (at !== bytes.length)
    throw new RangeError(`the ${what} table has ${bytes.length - at} bytes after its ${count} entries`);
  return out;
}

/** `docs.gaps` of the u64 LE separator positions `raw` (as `docs.u64` holds them). */
export function encodeDocGaps(raw: Buffer): Buffer {
  return encodeGaps(Array.from({ length: raw.length / 8 }, (_, i) => Number(raw.readBigUInt64LE(i * 8))));
}

/** The `docCount` separator positions of `docs.gaps`, each below `textBytes` (DocTable takes them as they are). */
export function decodeDocGaps(bytes: Uint8Array, docCount: number, textBytes: number): Float64Array {
  return decodeGaps(bytes, docCount, 'document', Math.max(1, textBytes));
}

/** `sa-counts.bin` of the chunk starts (non-decreasing, as the build writes them). */
export const encodeChunkCounts = (starts: Uint32Array): Buffer => encodeGaps(starts);

/** The `entries` chunk starts of `sa-counts.bin` (chunkStartsProblem checks them against the samples after). */
export function decodeChunkCounts(bytes: Uint8Array, entries: number): Uint32Array {
  return Uint32Array.from(decodeGaps(bytes, entries, 'sample chunk', 2 ** 32));
}
