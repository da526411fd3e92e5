/**
 * The wavelet trees' bits. The builder lays them out plain (`words`: one Uint32Array for every block, LSB-first
 * within a word, each block starting on a 128-bit boundary; the version 1–3 file `fm-bits.u32`). Since format
 * version 4 they are stored and held as **hybrid chunks** (`fm-bits.hyb`): each block's bits cut into chunks of
 * 256 bits, each chunk either plain (32 bytes) or its run boundaries (one byte each), whichever is smaller. A news
 * BWT has long runs (boilerplate, syndicated copies): on the real corpora this takes the bits from 0.383 to 0.277
 * bytes per text byte (DESIGN.md "Why hybrid chunks, not RRR").
 *
 * Stream, per chunk: a header byte, then its payload. Header 255 = plain, 32 payload bytes (bit i of the chunk is
 * bit i & 7 of byte i >> 3). Header h ≤ 63 = runs: the chunk's first bit is h & 1 and it changes value at the
 * k = h >> 1 ≤ 31 positions of its payload (strictly increasing, 1–255).
 * RAM directory (rebuilt on load, 8 bytes per chunk): [2j] the byte offset of chunk j's payload in the stream,
 * [2j + 1] the ones in its block before it (< 2^24) | header << 24. A uniform chunk (no boundaries) is then
 * answered from the directory alone, and a rank reads at most one payload.
 * Since format version 5 a chunk may also be header 254 = RRR (rrr-chunk.ts: 8 × 32-bit classes and offsets), when
 * that saves at least RRR_MIN_SAVING bytes over both: 0.277 → 0.248 B/B on the real corpora.
 */

import { encodeRrr, RRR, rrrBytes, rrrPayloadBytes, rrrRankBit } from './rrr-chunk.ts';

/** 32-bit population count (SWAR). */
export function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

export const CHUNK_WORDS = 4;

/**
 * Words a block of `bits` bits occupies in the plain layout: whole 128-bit chunks, with room past the last bit,
 * so a rank at the block's very end still reads this block's own words.
 */
export function blockWords(bits: number): number {
  return (Math.floor(bits / (32 * CHUNK_WORDS)) + 1) * CHUNK_WORDS;
}

/** Bits per hybrid chunk; a position in it fits a byte. */
export const HYBRID_BITS = 256;
export const PLAIN = 255;
const PLAIN_BYTES = HYBRID_BITS / 8;
const CHUNK_WORDS_256 = HYBRID_BITS / 32;
/** Block-local ones must fit the directory's 24 bits (a block has ≤ 2^15 rows × ≤ 31 levels). */
const MAX_ONES = 2 ** 24;

/** Hybrid chunks a block of `bits` bits takes: whole chunks with room past the last bit, as `blockWords`. */
export function blockChunks(bits: number): number {
  return Math.floor(bits / HYBRID_BITS) + 1;
}

const BYTE_ONES = Uint8Array.from({ length: 256 }, (_, b) => popcount(b));

/** Run boundaries from which an RRR chunk may be smaller (its payload has at least 6 bytes of classes). */
const RRR_MIN_RUNS = 7;
/**
 * Bytes an RRR chunk must save over the smaller other form to be chosen: its rank costs more (classes, offset, a
 * decode of up to 31 bits, in the chain of an LF step). On the real corpora, any saving: wavelet bits 0.242 B/B,
 * locate CPU +17 % and count p50 +24 % against version 4; ≥ 5 bytes: 0.248 B/B, locate p50 as version 4's within
 * the noise, count p50 +10 % (DESIGN.md "RRR chunks").
 */
const RRR_MIN_SAVING = 5;

/**
 * The hybrid stream of plain-layout bits: `blockBits[b]` bits per block, block b starting at word
 * Σ blockWords(blockBits[<b]). Bits past a block's end are 0 in `words` and so in the stream. `rrr` false writes
 * format version 4's stream (plain and run chunks only).
 */
export function encodeHybrid(words: Uint32Array, blockBits: ArrayLike<number>, rrr = true): Uint8Array {
  let chunks = 0;
  for (let b = 0; b < blockBits.length; b++) chunks += blockChunks(blockBits[b] as number);
  const out = new Uint8Array(chunks * (1 + PLAIN_BYTES));
  const bounds = new Uint8Array(PLAIN_BYTES);
  const rrrOut = new Uint8Array(2 * PLAIN_BYTES);
  const classes = new Uint8Array(CHUNK_WORDS_256);
  let at = 0;
  let wordBase = 0;
  for (let b = 0; b < blockBits.length; b++) {
    const bits = blockBits[b] as number;
    const limit = wordBase + blockWords(bits);
    for (let j = 0, n = blockChunks(bits); j < n; j++) {
      const from = wordBase + j * CHUNK_WORDS_256;
      // The last chunk may reach past the block's plain words (256- vs 128-bit rounding): those bits are 0.
      const wordAt = (i: number): number => (from + i < limit ? (words[from + i] as number) : 0);
      const first = wordAt(0) & 1;
      // Bit i of `changes` is set where bit i differs from bit i − 1 (the chunk's bit 0 has no predecessor).
      let k = 0;
      let carry = first;
      for (let i = 0; i < CHUNK_WORDS_256 && k < PLAIN_BYTES; i++) {
        const w = wordAt(i);
        let changes = (w ^ ((w << 1) | carry)) >>> 0;
        carry = w >>> 31;
        while (changes !== 0 && k < PLAIN_BYTES) {
          const low = changes & -changes;
          bounds[k++] = i * 32 + 31 - Math.clz32(low);
          changes = (changes ^ low) >>> 0;
        }
      }
      // The RRR size follows from the sub-blocks' popcounts: encode only a chunk that it makes smaller.
      if (rrr && k >= RRR_MIN_RUNS) for (let i = 0; i < CHUNK_WORDS_256; i++) classes[i] = popcount(wordAt(i));
      if (rrr && k >= RRR_MIN_RUNS && rrrBytes(classes) + RRR_MIN_SAVING <= Math.min(k, PLAIN_BYTES)) {
        out[at++] = RRR;
        const bytes = encodeRrr(wordAt, rrrOut);
        out.set(rrrOut.subarray(0, bytes), at);
        at += bytes;
      } else if (k < PLAIN_BYTES) {
        out[at++] = (k << 1) | first;
        out.set(bounds.subarray(0, k), at);
        at += k;
      } else {
        out[at++] = PLAIN;
        for (let i = 0; i < CHUNK_WORDS_256; i++) {
          const w = wordAt(i);
          out[at++] = w & 255;
          out[at++] = (w >>> 8) & 255;
          out[at++] = (w >>> 16) & 255;
          out[at++] = w >>> 24;
        }
      }
    }
    wordBase = limit;
  }
  return out.slice(0, at);
}

/**
 * Bytes of the chunk at `at` (its header and payload), or −1 when the header is unknown (RRR only if `rrr`), the
 * payload runs past the stream, or an RRR payload is malformed.
 */
export function chunkBytes(stream: Uint8Array, at: number, rrr: boolean): number {
  const header = stream[at] as number;
  if (header === PLAIN) return at + 1 + PLAIN_BYTES <= stream.length ? 1 + PLAIN_BYTES : -1;
  if (header === RRR) {
    const payload = rrr ? rrrPayloadBytes(stream, at + 1) : -1;
    return payload < 0 ? -1 : 1 + payload;
  }
  return header < 2 * PLAIN_BYTES && at + 1 + (header >>> 1) <= stream.length ? 1 + (header >>> 1) : -1;
}

/** Ones in the first `p` bits (0 ≤ p < 256) of a chunk, times 2, plus bit p itself. */
function chunkRankBit(stream: Uint8Array, off: number, header: number, p: number): number {
  let ones = 0;
  let bit: number;
  if (header === RRR) return rrrRankBit(stream, off, p);
  if (header === PLAIN) {
    const last = off + (p >>> 3);
    for (let i = off; i < last; i++) ones += BYTE_ONES[stream[i] as number] as number;
    const byte = stream[last] as number;
    ones += BYTE_ONES[byte & ((1 << (p & 7)) - 1)] as number;
    bit = (byte >>> (p & 7)) & 1;
  } else {
    bit = header & 1;
    let prev = 0;
    for (let i = off, end = off + (header >>> 1); i < end; i++) {
      const at = stream[i] as number;
      if (at > p) break;
      if (bit) ones += at - prev;
      prev = at;
      bit ^= 1;
    }
    if (bit) ones += p - prev;
  }
  return (ones << 1) | bit;
}

export class RankBits {
  /** The stream and the RAM directory above (read by the C walk, native/fm_locate.c, as they lie). */
  readonly stream: Uint8Array;
  readonly dir: Uint32Array;

  /**
   * @param blockChunkCounts chunks of each block, in order. Throws a RangeError when the stream does not hold
   * exactly these chunks, each well formed (the walks trust the directory to bound their reads).
   * @param rrr whether RRR chunks may occur (format version 5 and later).
   */
  constructor(stream: Uint8Array, blockChunkCounts: ArrayLike<number>, rrr: boolean) {
    let chunks = 0;
    for (let b = 0; b < blockChunkCounts.length; b++) chunks += blockChunkCounts[b] as number;
    this.stream = stream;
    this.dir = new Uint32Array(2 * chunks);
    let at = 0;
    let j = 0;
    for (let b = 0; b < blockChunkCounts.length; b++) {
      let ones = 0;
      for (let n = blockChunkCounts[b] as number; n > 0; n--, j++) {
        if (at >= stream.length) throw new RangeError(`the wavelet bits end after ${j} of ${chunks} chunks`);
        const header = stream[at] as number;
        if (header !== PLAIN && header > 2 * PLAIN_BYTES - 1 && !(rrr && header === RRR))
          throw new RangeError(`chunk ${j} has header ${header}`);
        const bytes = chunkBytes(stream, at, rrr);
        if (bytes < 0)
          throw new RangeError(
            header === RRR ? `chunk ${j} is a malformed RRR chunk` : `chunk ${j} runs past the end of the wavelet bits`,
          );
        at++;
        const size = bytes - 1;
        for (let i = 1; header < PLAIN_BYTES * 2 && i < size; i++) {
          if ((stream[at + i] as number) <= (stream[at + i - 1] as number))
            throw new RangeError(`chunk ${j}'s run boundaries do not increase`);
        }
        if (header < PLAIN_BYTES * 2 && size > 0 && stream[at] === 0)
          throw new RangeError(`chunk ${j} has a run boundary at 0`);
        if (ones >= MAX_ONES) throw new RangeError(`block ${b} has too many ones`);
        this.dir[2 * j] = at;
        this.dir[2 * j + 1] = (ones | (header << 24)) >>> 0;
        const last = chunkRankBit(stream, at, header, HYBRID_BITS - 1);
        ones += (last >>> 1) + (last & 1);
        at += size;
      }
    }
    if (at !== stream.length)
      throw new RangeError(`the wavelet bits hold ${stream.length - at} bytes past their last chunk`);
  }

  /** The hybrid form of plain-layout bits (format versions 1–3, and the builder's output). */
  static fromWords(words: Uint32Array, blockBits: ArrayLike<number>): RankBits {
    return new RankBits(encodeHybrid(words, blockBits), Array.from(blockBits, blockChunks), true);
  }

  /** Ones in bits [0, bit) of the block whose first chunk is `base`. */
  rank(base: number, bit: number): number {
    return this.rankBit(base, bit) >>> 1;
  }

  /** 2 × rank(base, bit) + the bit itself, in one pass (an LF step needs both; ranks in a block stay < 2^24). */
  rankBit(base: number, bit: number): number {
    const j = base + (bit >>> 8);
    const entry = this.dir[2 * j + 1] as number;
    return (
      ((entry & (MAX_ONES - 1)) << 1) + chunkRankBit(this.stream, this.dir[2 * j] as number, entry >>> 24, bit & 255)
    );
  }
}
