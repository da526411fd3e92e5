/**
 * Suffix-array samples for locate: the rows whose suffix starts at a text position divisible by `rate`.
 * Text-position sampling bounds a locate at `rate − 1` LF steps (rank sampling would only bound the mean).
 * Marked rows are found without an n-bit marker vector: per 256-row chunk, the index of its first sample
 * (`chunkStart`, u32) and each sample's row modulo 256 (`rowLow`, u8), so marking costs 8 bits per sample +
 * 32 bits per 256 rows.
 */
export class SaSamples {
  constructor(
    private readonly chunkStart: Uint32Array,
    private readonly rowLow: Uint8Array,
    /** Text position / rate of each sample, in row order. */
    private readonly values: Uint32Array,
    readonly rate: number,
  ) {}

  /** Text position of the suffix at T$ row i if sampled, else −1. */
  at(i: number): number {
    const chunk = i >>> 8;
    const low = i & 255;
    const end = this.chunkStart[chunk + 1] as number;
    for (let k = this.chunkStart[chunk] as number; k < end; k++) {
      const r = this.rowLow[k] as number;
      if (r === low) return (this.values[k] as number) * this.rate;
      if (r > low) break;
    }
    return -1;
  }
}

/** Collects the samples row by row during the build (rows must arrive in increasing order). */
export class SaSampleWriter {
  readonly chunkStart: Uint32Array;
  readonly rowLow: Uint8Array;
  readonly values: Uint32Array;
  private next = 0;
  private chunk = 0;

  constructor(rows: number, textBytes: number, readonly rate: number) {
    const samples = Math.ceil(textBytes / rate);
    this.chunkStart = new Uint32Array(Math.ceil(rows / 256) + 1);
    this.rowLow = new Uint8Array(samples);
    this.values = new Uint32Array(samples);
  }

  /** Records row i if its text position is sampled. */
  add(i: number, pos: number): void {
    if (pos % this.rate !== 0) return;
    const chunk = i >>> 8;
    while (this.chunk < chunk) this.chunkStart[++this.chunk] = this.next;
    this.rowLow[this.next] = i & 255;
    this.values[this.next++] = pos / this.rate;
  }

  /** Closes the chunk table; call once after the last row. */
  finish(): void {
    while (this.chunk + 1 < this.chunkStart.length) this.chunkStart[++this.chunk] = this.next;
  }
}
