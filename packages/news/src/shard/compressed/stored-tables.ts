/**
 * Compact on-disk encodings of two tables the reader expands on open (compressed format version 3, DESIGN.md).
 * In RAM both stay what versions 1 and 2 store as they lie, so the walk, the search and their C versions are
 * unchanged; only the files shrink, and the bytes saved pay for a denser sample rate (faster locate).
 *
 * - **Block symbols** (`fm-symbols.bin`, replacing `fm-counts.u16` + `fm-lengths.u8`, 768 bytes per block): per BWT
 *   block, a 32-byte bitmap of the bytes it holds, then those bytes' code lengths (u8 each) and counts (u16 LE
 *   each), in byte order: 32 + 3k bytes for k distinct bytes. A BWT block groups similar contexts, so k is small.
 * - **Sample chunk starts** (`sa-chunks.bin`, replacing `sa-chunks.u32`): the u32 start of every 256th entry, then
 *   every entry as a u16 offset from the u32 before it (256 entries span 65,536 rows, so at most 65,280 samples lie
 *   between an entry and its u32): 2 bytes per 256 rows instead of 4.
 */
import { ALPHABET } from './huffman.ts';

const BITMAP_BYTES = ALPHABET / 8;

/** The symbol table of `blocks` blocks (256 counts and 256 lengths each) in its version-3 encoding. */
export function encodeBlockSymbols(counts: Uint16Array, lengths: Uint8Array): Buffer {
  const blocks = counts.length / ALPHABET;
  let bytes = 0;
  for (let i = 0; i < counts.length; i++) if ((counts[i] as number) > 0) bytes += 3;
  const out = Buffer.alloc(blocks * BITMAP_BYTES + bytes);
  let at = 0;
  for (let b = 0; b < blocks; b++) {
    const base = b * ALPHABET;
    let k = 0;
    for (let c = 0; c < ALPHABET; c++) {
      if ((counts[base + c] as number) === 0) continue;
      out[at + (c >>> 3)] = (out[at + (c >>> 3)] as number) | (1 << (c & 7));
      k++;
    }
    let len = at + BITMAP_BYTES;
    let cnt = len + k;
    for (let c = 0; c < ALPHABET; c++) {
      const n = counts[base + c] as number;
      if (n === 0) continue;
      out[len++] = lengths[base + c] as number;
      out.writeUInt16LE(n, cnt);
      cnt += 2;
    }
    at = cnt;
  }
  return out;
}

/**
 * Expands a version-3 symbol table to 256 counts and 256 lengths per block. Throws a RangeError saying what is wrong
 * when the bytes do not hold exactly `blocks` blocks, a block is empty, or a count is 0.
 */
export function decodeBlockSymbols(bytes: Uint8Array, blocks: number): { counts: Uint16Array; lengths: Uint8Array } {
  const counts = new Uint16Array(blocks * ALPHABET);
  const lengths = new Uint8Array(blocks * ALPHABET);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  for (let b = 0; b < blocks; b++) {
    if (at + BITMAP_BYTES > bytes.length) throw new RangeError(`the symbol table ends in block ${b} of ${blocks}`);
    let k = 0;
    for (let i = 0; i < BITMAP_BYTES; i++) k += popcount8(bytes[at + i] as number);
    const end = at + BITMAP_BYTES + 3 * k;
    if (k === 0 || end > bytes.length)
      throw new RangeError(`block ${b} of the symbol table is ${k === 0 ? 'empty' : 'cut short'}`);
    let len = at + BITMAP_BYTES;
    let cnt = len + k;
    for (let c = 0; c < ALPHABET; c++) {
      if (((bytes[at + (c >>> 3)] as number) & (1 << (c & 7))) === 0) continue;
      const n = view.getUint16(cnt, true);
      if (n === 0) throw new RangeError(`block ${b} lists byte ${c} with count 0`);
      lengths[b * ALPHABET + c] = bytes[len++] as number;
      counts[b * ALPHABET + c] = n;
      cnt += 2;
    }
    at = end;
  }
  if (at !== bytes.length)
    throw new RangeError(`the symbol table has ${bytes.length - at} bytes after its ${blocks} blocks`);
  return { counts, lengths };
}

function popcount8(v: number): number {
  let n = 0;
  for (let x = v; x !== 0; x &= x - 1) n++;
  return n;
}

/** Bytes of the version-3 encoding of `entries` chunk starts. */
export function chunkStartsBytes(entries: number): number {
  return 4 * Math.ceil(entries / 256) + 2 * entries;
}

/** Chunk starts (non-decreasing, as the build writes them) in their version-3 encoding. */
export function encodeChunkStarts(starts: Uint32Array): Buffer {
  const supers = Math.ceil(starts.length / 256);
  const out = Buffer.alloc(chunkStartsBytes(starts.length));
  for (let s = 0; s < supers; s++) out.writeUInt32LE(starts[s * 256] as number, 4 * s);
  for (let j = 0; j < starts.length; j++) {
    const rel = (starts[j] as number) - (starts[j & ~255] as number);
    if (rel < 0 || rel > 0xffff) throw new RangeError(`chunk start ${j} is not a u16 after its 256th entry (${rel})`);
    out.writeUInt16LE(rel, 4 * supers + 2 * j);
  }
  return out;
}

/** Expands `entries` chunk starts from their version-3 encoding (its size is checked against the header first). */
export function decodeChunkStarts(bytes: Uint8Array, entries: number): Uint32Array {
  if (bytes.length !== chunkStartsBytes(entries))
    throw new RangeError(`the chunk starts take ${bytes.length} bytes, expected ${chunkStartsBytes(entries)}`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const supers = Math.ceil(entries / 256);
  const starts = new Uint32Array(entries);
  for (let j = 0; j < entries; j++)
    starts[j] = view.getUint32(4 * (j >>> 8), true) + view.getUint16(4 * supers + 2 * j, true);
  return starts;
}

/**
 * Checks chunk starts (any version) before a walk relies on them: they begin at 0, never decrease, and end at the
 * number of samples. Returns a message, or undefined when they are sound.
 */
export function chunkStartsProblem(starts: Uint32Array, samples: number): string | undefined {
  if (starts.length === 0 || starts[0] !== 0) return 'the first chunk does not start at sample 0';
  for (let j = 1; j < starts.length; j++)
    if ((starts[j] as number) < (starts[j - 1] as number)) return `chunk ${j} starts before chunk ${j - 1}`;
  if (starts[starts.length - 1] !== samples)
    return `the chunks hold ${String(starts[starts.length - 1])} samples, expected ${samples}`;
  return undefined;
}
