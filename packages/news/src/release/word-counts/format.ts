import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';

/**
 * The word-count table of one shard (release/DESIGN.md, "Word-count tables"): total tokens and types, and the
 * count of every case-sensitive word with count ≥ `floor`, sorted, front-coded, varint counts, brotli-compressed.
 */
export interface WordCountTable {
  /** Word tokens in the shard (every word, also those under the floor). */
  readonly tokens: number;
  /** Distinct case-sensitive words in the shard (also those under the floor). */
  readonly types: number;
  /** Words counted fewer times than this are left out of `words`. */
  readonly floor: number;
  /** Sorted by UTF-16 code units (JS `<`), no duplicates. */
  readonly words: readonly string[];
  /** `counts[i]` is the count of `words[i]`. */
  readonly counts: Float64Array;
}

export const WORD_COUNTS_MAGIC = 'NWCT';
/** Bump on any incompatible change; a reader refuses other versions (the release must be rebuilt). */
export const WORD_COUNTS_FORMAT_VERSION = 1;

export class WordCountsFormatError extends Error {
  override readonly name = 'WordCountsFormatError';
}

/** Counts of every word into the table that keeps those with count ≥ `floor`. */
export function tableOfCounts(counts: ReadonlyMap<string, number>, floor: number): WordCountTable {
  let tokens = 0;
  const kept: string[] = [];
  for (const [w, n] of counts) {
    tokens += n;
    if (n >= floor) kept.push(w);
  }
  kept.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const out = new Float64Array(kept.length);
  kept.forEach((w, i) => {
    out[i] = counts.get(w) ?? 0;
  });
  return { tokens, types: counts.size, floor, words: kept, counts: out };
}

class ByteSink {
  buf = Buffer.allocUnsafe(1 << 16);
  used = 0;
  private room(n: number): void {
    if (this.used + n <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.used + n));
    this.buf.copy(next, 0, 0, this.used);
    this.buf = next;
  }
  varint(value: number): void {
    this.room(10);
    // Arithmetic, not bit operations: counts may pass 2^31.
    let v = value;
    while (v >= 0x80) {
      this.buf[this.used++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
    }
    this.buf[this.used++] = v;
  }
  bytes(b: Uint8Array): void {
    this.room(b.length);
    this.buf.set(b, this.used);
    this.used += b.length;
  }
}

/**
 * The file's bytes: magic, version byte, then the brotli-compressed body: varints tokens, types, floor, word count n
 * and blob length; the words, sorted, UTF-8, each ended by `\n` (a word segment never holds one); n varint counts.
 * One blob decodes with one toString and split, much faster than per-word front coding. Brotli quality 9 with a
 * 16 MiB window: quality 11 was 13 % of a build's CPU on the real corpora as one month (3.2 CPU-s for their 2.25 MB
 * body, against 0.35) for an 18 % smaller table, 0.003 bytes per text byte (release/DESIGN.md, "Word-count tables").
 */
export function encodeWordCounts(t: WordCountTable): Buffer {
  for (const w of t.words)
    if (w.includes('\n'))
      throw new RangeError(
        `word ${JSON.stringify(w)} holds a line break; words are UAX #29 segments with a letter or digit`,
      );
  const blob = Buffer.from(t.words.length === 0 ? '' : t.words.join('\n') + '\n', 'utf8');
  const body = new ByteSink();
  body.varint(t.tokens);
  body.varint(t.types);
  body.varint(t.floor);
  body.varint(t.words.length);
  body.varint(blob.length);
  body.bytes(blob);
  for (const n of t.counts) body.varint(n);
  const packed = brotliCompressSync(body.buf.subarray(0, body.used), {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 9,
      [constants.BROTLI_PARAM_LGWIN]: 24,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.used,
    },
  });
  return Buffer.concat([Buffer.from(WORD_COUNTS_MAGIC, 'latin1'), Buffer.of(WORD_COUNTS_FORMAT_VERSION), packed]);
}

/** Reads a file written by `encodeWordCounts`; any other bytes are a WordCountsFormatError. */
export function decodeWordCounts(file: Uint8Array, name = 'word-count table'): WordCountTable {
  const head = Buffer.from(file.buffer, file.byteOffset, file.length);
  if (head.length < 5 || head.toString('latin1', 0, 4) !== WORD_COUNTS_MAGIC)
    throw new WordCountsFormatError(`${name} is not a word-count table`);
  if (head[4] !== WORD_COUNTS_FORMAT_VERSION) {
    throw new WordCountsFormatError(
      `${name} has word-count format ${head[4]}, this build reads ${WORD_COUNTS_FORMAT_VERSION}`,
    );
  }
  let body: Buffer;
  try {
    body = brotliDecompressSync(head.subarray(5));
  } catch {
    throw new WordCountsFormatError(`${name} is corrupt (brotli)`);
  }
  let at = 0;
  const varint = (): number => {
    let v = 0;
    let scale = 1;
    for (;;) {
      const b = body[at++];
      if (b === undefined) throw new WordCountsFormatError(`${name} is truncated`);
      v += (b & 0x7f) * scale;
      if (b < 0x80) return v;
      scale *= 0x80;
    }
  };
  const tokens = varint();
  const types = varint();
  const floor = varint();
  const n = varint();
  const blobBytes = varint();
  if (at + blobBytes > body.length) throw new WordCountsFormatError(`${name} is truncated`);
  const words = n === 0 ? [] : body.toString('utf8', at, at + blobBytes - 1).split('\n');
  at += blobBytes;
  if (words.length !== n)
    throw new WordCountsFormatError(`${name} is corrupt (${words.length} words, the header says ${n})`);
  const counts = new Float64Array(n);
  for (let i = 0; i < n; i++) counts[i] = varint();
  if (at !== body.length)
    throw new WordCountsFormatError(`${name} is corrupt (${body.length - at} bytes after the counts)`);
  return { tokens, types, floor, words, counts };
}
