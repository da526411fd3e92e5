import { hashWords } from '../words/index.ts';

/**
 * MinHash signatures of word 5-shingles by one-permutation hashing (Li, Owen & Zhang 2012): each shingle is hashed
 * once, its top bits pick one of {@link SIGNATURE_SLOTS} bins and each bin keeps its smallest value; empty bins
 * borrow the next filled bin's value (rotation densification, Shrivastava & Li 2014), so the chance that two
 * signatures agree in a bin is (close to) the Jaccard similarity of the shingle sets. One hash per word instead of
 * 64 keeps signing at the scanner's speed. Bins are stored as 16-bit values: a chance agreement costs 1/65,536.
 */
export const SHINGLE_WORDS = 5;
export const SIGNATURE_SLOTS = 64;

const SLOT_BITS = 6; // log2(SIGNATURE_SLOTS)
const EMPTY = 0xffffffff;
const VALUE_MASK = (1 << (32 - SLOT_BITS)) - 1;

/** Buffers reused across texts (signing allocates nothing per text once they are large enough). */
export interface SignScratch {
  readonly bins: Uint32Array;
  words: Uint32Array;
}

export const createSignScratch = (): SignScratch => ({
  bins: new Uint32Array(SIGNATURE_SLOTS),
  words: new Uint32Array(1 << 16),
});

/** murmur3's finaliser: spreads the bits of a 32-bit value. */
export function mix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * Signs the UTF-8 text `bytes` into `out[offset .. offset + SIGNATURE_SLOTS)`. Returns false (and leaves `out`
 * alone) when the text has no word: such a text is only ever clustered by its exact hash. A text of fewer than
 * five words is one shingle of all its words.
 * @example const sig = new Uint16Array(SIGNATURE_SLOTS); signText(Buffer.from('a b c d e f'), sig, 0) // true
 */
export function signText(
  bytes: Uint8Array,
  out: Uint16Array,
  offset: number,
  scratch: SignScratch = createSignScratch(),
): boolean {
  const bins = scratch.bins;
  if (scratch.words.length < bytes.length)
    scratch.words = new Uint32Array(Math.max(bytes.length, scratch.words.length * 2));
  const words = scratch.words;
  const count = hashWords(bytes, words);
  if (count === 0) return false;
  bins.fill(EMPTY);
  // A text of fewer words than a shingle is one shingle of all its words.
  const last = Math.max(count - SHINGLE_WORDS, 0);
  for (let i = 0; i <= last; i++) {
    // The shingle's hash mixes its word hashes by position (a polynomial), so word order matters.
    const h = mix32(
      (Math.imul(words[i] as number, 0x9e3779b1) +
        Math.imul(words[i + 1] ?? 1, 0x85ebca77) +
        Math.imul(words[i + 2] ?? 2, 0xc2b2ae3d) +
        Math.imul(words[i + 3] ?? 3, 0x27d4eb2f) +
        (words[i + 4] ?? 4)) |
        0,
    );
    const slot = h >>> (32 - SLOT_BITS);
    const value = h & VALUE_MASK;
    if (value < (bins[slot] as number)) bins[slot] = value;
  }
  const scratchBins = bins;
  for (let s = 0; s < SIGNATURE_SLOTS; s++) {
    let from = s;
    let distance = 0;
    while (scratchBins[from] === EMPTY) {
      from = (from + 1) & (SIGNATURE_SLOTS - 1);
      distance++;
    }
    // The borrowed value is re-mixed with the distance, so two texts agree in a borrowed bin only when they agree
    // in the bin it came from and lie the same distance from it.
    out[offset + s] = mix32((scratchBins[from] as number) ^ Math.imul(distance + 1, 0x9e3779b1)) & 0xffff;
  }
  return true;
}

/** The share of bins in which two signatures agree: the estimate of their shingle sets' Jaccard similarity. */
export function estimateSimilarity(signatures: Uint16Array, a: number, b: number): number {
  let same = 0;
  const pa = a * SIGNATURE_SLOTS;
  const pb = b * SIGNATURE_SLOTS;
  for (let s = 0; s < SIGNATURE_SLOTS; s++) if (signatures[pa + s] === signatures[pb + s]) same++;
  return same / SIGNATURE_SLOTS;
}
