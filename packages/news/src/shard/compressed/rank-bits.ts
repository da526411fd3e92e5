/**
 * The wavelet trees' bits: one Uint32Array for every block (LSB-first within a word), each block starting on a
 * 128-bit chunk, and a rank directory of one u32 per chunk (ones since the start of its block), so a rank reads
 * one directory entry and popcounts at most 4 words. In RAM each chunk's entry sits right before its words (one
 * cache line per rank instead of two: locate is bound by cache misses); the directory is rebuilt on load (25% of
 * the bits, RAM only), so it costs nothing on disk.
 */

/** 32-bit population count (SWAR). */
export function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

export const CHUNK_WORDS = 4;
const CHUNK_SHIFT = 2;

/**
 * Words a block of `bits` bits occupies: whole chunks, with room past the last bit, so a rank at the block's
 * very end still reads this block's directory entry rather than the next block's.
 */
export function blockWords(bits: number): number {
  return (Math.floor(bits / (32 * CHUNK_WORDS)) + 1) * CHUNK_WORDS;
}

/** u32s per chunk in RAM: the chunk's rank-directory entry, then its 4 words, so a rank touches one cache line. */
const STRIDE = CHUNK_WORDS + 1;

export class RankBits {
  /** The RAM layout above (read by the C locate walk, native/fm_locate.c, as it lies). */
  readonly chunks: Uint32Array;

  /** @param blockStarts first word of every block (chunk-aligned), ascending, plus the end. */
  constructor(words: Uint32Array, blockStarts: Uint32Array) {
    this.chunks = new Uint32Array((words.length >>> CHUNK_SHIFT) * STRIDE);
    for (let b = 0; b + 1 < blockStarts.length; b++) {
      let ones = 0;
      for (let w = blockStarts[b] as number, end = blockStarts[b + 1] as number; w < end; w++) {
        const at = (w >>> CHUNK_SHIFT) * STRIDE;
        if ((w & (CHUNK_WORDS - 1)) === 0) this.chunks[at] = ones;
        this.chunks[at + 1 + (w & (CHUNK_WORDS - 1))] = words[w] as number;
        ones += popcount(words[w] as number);
      }
    }
  }

  /** Ones in bits [0, bit) of the block starting at word `base`. */
  rank(base: number, bit: number): number {
    return this.rankBit(base, bit) >>> 1;
  }

  /** 2 × rank(base, bit) + the bit itself, in one pass (an LF step needs both; ranks in a block stay < 2^30). */
  rankBit(base: number, bit: number): number {
    const chunks = this.chunks;
    const w = base + (bit >>> 5);
    const at = (w >>> CHUNK_SHIFT) * STRIDE;
    const inChunk = w & (CHUNK_WORDS - 1);
    let r = chunks[at] as number;
    for (let k = 1; k <= inChunk; k++) r += popcount(chunks[at + k] as number);
    const word = chunks[at + 1 + inChunk] as number;
    const rem = bit & 31;
    if (rem !== 0) r += popcount(word & (0xffffffff >>> (32 - rem)));
    return (r << 1) | ((word >>> rem) & 1);
  }
}
