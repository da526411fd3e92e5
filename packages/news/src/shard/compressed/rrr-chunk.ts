/**
 * RRR chunks (format version 5): the third form of a 256-bit hybrid chunk (rank-bits.ts), for dense bits that are
 * neither runs nor noise. The chunk is 8 sub-blocks of 32 bits, each stored as its class (its ones, 0–32) and its
 * offset (the sub-block's index among the C(32, class) words with that many ones, in ⌈log2 C(32, class)⌉ bits).
 * On the real corpora this takes the wavelet bits from 0.277 to 0.242 bytes per text byte (DESIGN.md "RRR chunks").
 * 32-bit sub-blocks, not sdsl's 63: the same size here (the 6-bit classes cost what 64-bit offsets save) and every
 * binomial fits a u32, so the TypeScript reader needs no BigInt.
 *
 * Payload, LSB-first bit stream: 8 classes of 6 bits (48 bits), then the 8 offsets back to back; padded to a byte.
 * Offset of a word with ones at c_1 < … < c_k: Σ_j C(c_j, j) (the combinatorial number system), so it decodes
 * from bit 31 down: bit i is set when offset ≥ C(i, k), which is then subtracted and k decremented.
 */
export const RRR = 254;
const SUBS = 8;
const CLASS_BITS = 6;
const CLASSES_BYTES = (SUBS * CLASS_BITS) / 8;

/** BINOM[n · 33 + k] = C(n, k) for n, k ≤ 32 (C(32, 16) = 601,080,390 < 2^32). */
export const BINOM = new Uint32Array(33 * 33);
for (let n = 0; n <= 32; n++) {
  BINOM[n * 33] = 1;
  for (let k = 1; k <= n; k++)
    BINOM[n * 33 + k] = (BINOM[(n - 1) * 33 + k - 1] as number) + (n > k ? (BINOM[(n - 1) * 33 + k] as number) : 0);
}
/** Offset bits of a 32-bit sub-block of each class. */
export const OFFSET_BITS = Uint8Array.from({ length: 33 }, (_, k) => {
  const c = BINOM[32 * 33 + k] as number;
  return c <= 1 ? 0 : 32 - Math.clz32(c - 1);
});

/** `width` (≤ 32) bits of `stream` from bit `bit` of byte `off` on, LSB first; arithmetic keeps 33–40-bit spans exact. */
function readBits(stream: Uint8Array, off: number, bit: number, width: number): number {
  if (width === 0) return 0;
  const first = off + (bit >>> 3);
  const last = off + ((bit + width - 1) >>> 3);
  let v = 0;
  for (let i = last; i >= first; i--) v = v * 256 + (stream[i] as number);
  return Math.floor(v / 2 ** (bit & 7)) % 2 ** width;
}

const classOf = (stream: Uint8Array, off: number, s: number): number =>
  readBits(stream, off, s * CLASS_BITS, CLASS_BITS);

/** Payload bytes of the RRR chunk at `off`, or −1 when a class is over 32 or an offset out of its range. */
export function rrrPayloadBytes(stream: Uint8Array, off: number): number {
  if (off + CLASSES_BYTES > stream.length) return -1;
  let bits = 0;
  for (let s = 0; s < SUBS; s++) {
    const k = classOf(stream, off, s);
    if (k > 32) return -1;
    bits += OFFSET_BITS[k] as number;
  }
  const bytes = CLASSES_BYTES + ((bits + 7) >>> 3);
  if (off + bytes > stream.length) return -1;
  for (let s = 0, at = SUBS * CLASS_BITS; s < SUBS; s++) {
    const k = classOf(stream, off, s);
    if (readBits(stream, off, at, OFFSET_BITS[k] as number) >= (BINOM[32 * 33 + k] as number)) return -1;
    at += OFFSET_BITS[k] as number;
  }
  return bytes;
}

/** Writes the low `width` (≤ 31) bits of `value` into `out` from bit `at` on (LSB first; `out` zeroed). */
function putBits(out: Uint8Array, at: number, value: number, width: number): void {
  for (let rem = width; rem > 0;) {
    const shift = at & 7;
    const take = Math.min(8 - shift, rem);
    out[at >>> 3]! |= (value & ((1 << take) - 1)) << shift;
    value >>>= take;
    at += take;
    rem -= take;
  }
}

/** Payload bytes the RRR form of a chunk with these sub-block classes takes (known before encoding it). */
export function rrrBytes(classes: ArrayLike<number>): number {
  let bits = 0;
  for (let s = 0; s < SUBS; s++) bits += OFFSET_BITS[classes[s] as number] as number;
  return CLASSES_BYTES + ((bits + 7) >>> 3);
}

/**
 * The RRR payload of the 8 words of a chunk, into `out` from 0; returns its length. `words(i)` is the chunk's i-th
 * 32-bit word (LSB = the chunk's bit 32i).
 */
export function encodeRrr(words: (i: number) => number, out: Uint8Array): number {
  out.fill(0, 0, CLASSES_BYTES + 32);
  let at = SUBS * CLASS_BITS;
  for (let s = 0; s < SUBS; s++) {
    let w = words(s) >>> 0;
    let k = 0;
    let offset = 0;
    // Over the ones only, lowest first: the j-th one at position i adds C(i, j).
    for (; w !== 0; w = (w & (w - 1)) >>> 0) offset += BINOM[(31 - Math.clz32(w & -w)) * 33 + ++k] as number;
    putBits(out, s * CLASS_BITS, k, CLASS_BITS);
    putBits(out, at, offset, OFFSET_BITS[k] as number);
    at += OFFSET_BITS[k] as number;
  }
  return (at + 7) >>> 3;
}

/** Ones in the first `p` bits (0 ≤ p < 256) of the RRR chunk at `off`, times 2, plus bit p itself. */
export function rrrRankBit(stream: Uint8Array, off: number, p: number): number {
  const q = p >>> 5;
  let ones = 0;
  let at = SUBS * CLASS_BITS;
  for (let s = 0; s < q; s++) {
    const k = classOf(stream, off, s);
    ones += k;
    at += OFFSET_BITS[k] as number;
  }
  const total = classOf(stream, off, q);
  let k = total;
  let offset = readBits(stream, off, at, OFFSET_BITS[k] as number);
  // Decode from bit 31 down to bit p & 31: the ones above it, then the bit itself.
  const r = p & 31;
  for (let i = 31; i > r && k > 0; i--) {
    const c = BINOM[i * 33 + k] as number;
    if (offset >= c) {
      offset -= c;
      k--;
    }
  }
  const bit = k > 0 && offset >= (BINOM[r * 33 + k] as number) ? 1 : 0;
  return ((ones + k - bit) << 1) | bit;
}
