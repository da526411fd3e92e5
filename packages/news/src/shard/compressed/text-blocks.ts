import { readSync } from 'node:fs';
import { ShardFormatError } from '../errors.ts';
import type { BlockDecoder } from './text-codec.ts';

/** Where the compressed bytes live: the whole file in RAM, or positional reads of it. */
export type BlockSource =
  { readonly kind: 'memory'; readonly bytes: Buffer } | { readonly kind: 'disk'; readonly fd: number };

/** Decompressed blocks kept: a window touches ≤ 2, an occurrences page tends to revisit the same articles. */
const CACHE_BLOCKS = 8;

/**
 * Random access to the shard text through the compressed blocks, with a small cache of decompressed blocks. A block
 * pushed out of the cache lends its buffer to the next block decoded: a view `read` returned stays valid until
 * CACHE_BLOCKS other blocks are decoded (ShardReader: read views at once, never keep them). New buffers for every
 * block cost ngrams "the" (16.5 MB of blocks a call) about a sixth of its CPU in page faults and GC.
 */
export class TextBlocks {
  private readonly starts: Float64Array;
  private readonly cache = new Map<number, Buffer>();
  /** The block last returned: the Map's last entry. */
  private newest = -1;
  private newestBlock: Buffer | undefined;

  constructor(
    private readonly source: BlockSource,
    offsetsRaw: Buffer,
    readonly textBytes: number,
    readonly blockBytes: number,
    file: string,
    fileBytes: number,
    private readonly decode: BlockDecoder,
    /** The compressed text file's name, for errors. */
    private readonly textFile = 'text.br',
  ) {
    const count = offsetsRaw.length / 8;
    this.starts = new Float64Array(count);
    for (let b = 0; b < count; b++) {
      this.starts[b] = Number(offsetsRaw.readBigUInt64LE(8 * b));
      if (b > 0 && (this.starts[b] as number) < (this.starts[b - 1] as number))
        throw new ShardFormatError(file, `block offset ${b} decreases`);
    }
    if (this.starts[0] !== 0 || this.starts[count - 1] !== fileBytes)
      throw new ShardFormatError(file, `block offsets do not cover the ${fileBytes}-byte text file`);
  }

  /** Text bytes [start, end) (a copy when it spans blocks, else a view of a cached block). */
  read(start: number, end: number): Buffer {
    if (end <= start) return Buffer.alloc(0);
    const first = Math.floor(start / this.blockBytes);
    const last = Math.floor((end - 1) / this.blockBytes);
    if (first === last)
      return this.block(first).subarray(start - first * this.blockBytes, end - first * this.blockBytes);
    const out = Buffer.allocUnsafe(end - start);
    for (let b = first; b <= last; b++) {
      const from = Math.max(start, b * this.blockBytes);
      const to = Math.min(end, (b + 1) * this.blockBytes);
      this.block(b).copy(out, from - start, from - b * this.blockBytes, to - b * this.blockBytes);
    }
    return out;
  }

  private block(b: number): Buffer {
    // A scan reads the articles of one block after another: the newest block needs no move to the LRU's end.
    if (b === this.newest && this.newestBlock !== undefined) return this.newestBlock;
    const hit = this.cache.get(b);
    if (hit) {
      this.cache.delete(b); // re-insert: Map order is the LRU order
      this.cache.set(b, hit);
      this.newest = b;
      this.newestBlock = hit;
      return hit;
    }
    const from = this.starts[b] as number;
    const length = (this.starts[b + 1] as number) - from;
    let packed: Buffer;
    if (this.source.kind === 'memory') {
      packed = this.source.bytes.subarray(from, from + length);
    } else {
      packed = Buffer.allocUnsafe(length);
      if (readSync(this.source.fd, packed, 0, length, from) !== length)
        throw new ShardFormatError(this.textFile, `short read of block ${b}`);
    }
    const want = Math.min(this.blockBytes, this.textBytes - b * this.blockBytes);
    let spare: Buffer | undefined;
    if (this.cache.size >= CACHE_BLOCKS) {
      const oldest = this.cache.keys().next().value as number;
      spare = this.cache.get(oldest);
      this.cache.delete(oldest);
    }
    let raw: Buffer;
    try {
      raw = this.decode(packed, want, spare?.length === want ? spare : undefined);
    } catch (e) {
      throw new ShardFormatError(this.textFile, `block ${b}: ${(e as Error).message}`);
    }
    this.cache.set(b, raw);
    this.newest = b;
    this.newestBlock = raw;
    return raw;
  }
}
