/**
 * Suffix-array samples for locate: the rows whose suffix starts at a text position divisible by `rate`.
 * Text-position sampling bounds a locate at `rate − 1` LF steps (rank sampling would only bound the mean).
 * Marked rows are found without an n-bit marker vector: per 256-row chunk, the index of its first sample
 * (`chunkStart`, u32) and each sample's row modulo 256 (`rowLow`, u8), so marking costs 8 bits per sample +
 * 32 bits per 256 rows. Each sample stores position / rate bit-packed in `valueBits(textBytes, rate)` bits.
 */

/** Bits per packed sample value: enough for the largest position / rate. */
export function valueBits(textBytes: number, rate: number): number {
  return Math.max(1, 32 - Math.clz32(Math.max(0, Math.floor((textBytes - 1) / rate))));
}

/** Words of the packed sample values. */
export function packedValueWords(textBytes: number, rate: number): number {
  return Math.ceil((Math.ceil(textBytes / rate) * valueBits(textBytes, rate)) / 32);
}

export class SaSamples {
  /** Bits per packed value. */
  readonly width: number;
  private readonly mask: number;

  /** The arrays are public so the C locate walk (native/fm_locate.c) reads them as they lie. */
  constructor(
    readonly chunkStart: Uint32Array,
    readonly rowLow: Uint8Array,
    /** Bit-packed text position / rate of each sample, in row order. */
    readonly values: Uint32Array,
    readonly rate: number,
    textBytes: number,
  ) {
    this.width = valueBits(textBytes, rate);
    this.mask = 2 ** this.width - 1;
  }

  /** Text position of the suffix at T$ row i if sampled, else −1. */
  at(i: number): number {
    const chunk = i >>> 8;
    const low = i & 255;
    const end = this.chunkStart[chunk + 1] as number;
    for (let k = this.chunkStart[chunk] as number; k < end; k++) {
      const r = this.rowLow[k] as number;
      if (r === low) return this.value(k) * this.rate;
      if (r > low) break;
    }
    return -1;
  }

  private value(k: number): number {
    return packedAt(this.values, k, this.width, this.mask);
  }
}

/** Entry k of `width`-bit values packed LSB first in u32 words; `mask` = 2^width − 1. */
export function packedAt(words: Uint32Array, k: number, width: number, mask: number): number {
  const bit = k * width;
  const w = Math.floor(bit / 32);
  const off = bit - w * 32;
  let v = (words[w] as number) >>> off;
  if (off + width > 32) v |= (words[w + 1] as number) << (32 - off);
  return (v & mask) >>> 0;
}

/** Sets entry k (zero before) of `width`-bit values packed LSB first in u32 words. */
export function packedSet(words: Uint32Array, k: number, width: number, v: number): void {
  const bit = k * width;
  const w = Math.floor(bit / 32);
  const off = bit - w * 32;
  words[w] = (words[w] as number) | (v << off);
  if (off + width > 32) words[w + 1] = (words[w + 1] as number) | (v >>> (32 - off));
}

/** The three sample arrays as the build writes them (SaSamples reads them). */
export interface SampleArrays {
  readonly chunkStart: Uint32Array;
  readonly rowLow: Uint8Array;
  readonly values: Uint32Array;
}

/** Zeroed sample arrays for `rows` FM rows over `textBytes` of text (one sample per `rate` positions). */
export function allocateSamples(rows: number, textBytes: number, rate: number): SampleArrays {
  return {
    chunkStart: new Uint32Array(Math.ceil(rows / 256) + 1),
    rowLow: new Uint8Array(Math.ceil(textBytes / rate)),
    values: new Uint32Array(packedValueWords(textBytes, rate)),
  };
}

/**
 * Collects the samples row by row during the build (rows must arrive in increasing order). The TypeScript
 * reference of the addon's fmBwtRows (native/fm_build.c), which the build uses when the addon has it.
 */
export class SaSampleWriter implements SampleArrays {
  readonly chunkStart: Uint32Array;
  readonly rowLow: Uint8Array;
  readonly values: Uint32Array;
  private readonly width: number;
  private next = 0;
  private chunk = 0;

  constructor(
    rows: number,
    textBytes: number,
    readonly rate: number,
  ) {
    ({
      chunkStart: this.chunkStart,
      rowLow: this.rowLow,
      values: this.values,
    } = allocateSamples(rows, textBytes, rate));
    this.width = valueBits(textBytes, rate);
  }

  /** Records row i if its text position is sampled. */
  add(i: number, pos: number): void {
    if (pos % this.rate !== 0) return;
    const chunk = i >>> 8;
    while (this.chunk < chunk) this.chunkStart[++this.chunk] = this.next;
    this.rowLow[this.next] = i & 255;
    packedSet(this.values, this.next, this.width, pos / this.rate);
    this.next++;
  }

  /** Closes the chunk table; call once after the last row. */
  finish(): void {
    while (this.chunk + 1 < this.chunkStart.length) this.chunkStart[++this.chunk] = this.next;
  }
}
