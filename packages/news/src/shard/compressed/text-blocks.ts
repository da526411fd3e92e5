import { readSync } from 'node:fs';
import { promisify } from 'node:util';
import { brotliCompress, brotliDecompressSync, constants } from 'node:zlib';
import { ShardFormatError } from '../errors.ts';

const compress = promisify(brotliCompress);

/** Blocks compressed at once on the libuv pool: enough to keep a core busy beside the suffix sort. */
const IN_FLIGHT = 4;

/**
 * Compresses the shard text in independent brotli blocks of `blockBytes` (the last one shorter), so a window
 * decompresses one or two blocks. Returns the blocks and the u64 LE offset table (block count + 1 entries).
 */
export async function compressTextBlocks(text: Uint8Array, blockBytes: number, quality: number): Promise<{ blocks: Buffer[]; offsets: Buffer }> {
  const count = Math.ceil(text.length / blockBytes);
  const blocks = new Array<Buffer>(count);
  let next = 0;
  const work = async (): Promise<void> => {
    for (let b = next++; b < count; b = next++) {
      const raw = text.subarray(b * blockBytes, Math.min(text.length, (b + 1) * blockBytes));
      blocks[b] = await compress(raw, {
        params: { [constants.BROTLI_PARAM_QUALITY]: quality, [constants.BROTLI_PARAM_LGWIN]: Math.max(16, Math.ceil(Math.log2(blockBytes))), [constants.BROTLI_PARAM_SIZE_HINT]: raw.length },
      });
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, work));
  const offsets = Buffer.alloc(8 * (count + 1));
  let at = 0;
  blocks.forEach((block, b) => {
    offsets.writeBigUInt64LE(BigInt(at), 8 * b);
    at += block.length;
  });
  offsets.writeBigUInt64LE(BigInt(at), 8 * count);
  return { blocks, offsets };
}

/** Where the compressed bytes live: the whole file in RAM, or positional reads of it. */
export type BlockSource = { readonly kind: 'memory'; readonly bytes: Buffer } | { readonly kind: 'disk'; readonly fd: number };

/** Decompressed blocks kept: a window touches ≤ 2, an occurrences page tends to revisit the same articles. */
const CACHE_BLOCKS = 8;

/** Random access to the shard text through the compressed blocks, with a small cache of decompressed blocks. */
export class TextBlocks {
  private readonly starts: Float64Array;
  private readonly cache = new Map<number, Buffer>();

  constructor(private readonly source: BlockSource, offsetsRaw: Buffer, readonly textBytes: number, readonly blockBytes: number, file: string, fileBytes: number) {
    const count = offsetsRaw.length / 8;
    this.starts = new Float64Array(count);
    for (let b = 0; b < count; b++) {
      this.starts[b] = Number(offsetsRaw.readBigUInt64LE(8 * b));
      if (b > 0 && (this.starts[b] as number) < (this.starts[b - 1] as number)) throw new ShardFormatError(file, `block offset ${b} decreases`);
    }
    if (this.starts[0] !== 0 || this.starts[count - 1] !== fileBytes) throw new ShardFormatError(file, `block offsets do not cover the ${fileBytes}-byte text file`);
  }

  /** Text bytes [start, end) (a copy when it spans blocks, else a view of a cached block). */
  read(start: number, end: number): Buffer {
    if (end <= start) return Buffer.alloc(0);
    const first = Math.floor(start / this.blockBytes);
    const last = Math.floor((end - 1) / this.blockBytes);
    if (first === last) return this.block(first).subarray(start - first * this.blockBytes, end - first * this.blockBytes);
    const out = Buffer.allocUnsafe(end - start);
    for (let b = first; b <= last; b++) {
      const from = Math.max(start, b * this.blockBytes);
      const to = Math.min(end, (b + 1) * this.blockBytes);
      this.block(b).copy(out, from - start, from - b * this.blockBytes, to - b * this.blockBytes);
    }
    return out;
  }

  private block(b: number): Buffer {
    const hit = this.cache.get(b);
    if (hit) {
      this.cache.delete(b); // re-insert: Map order is the LRU order
      this.cache.set(b, hit);
      return hit;
    }
    const from = this.starts[b] as number;
    const length = (this.starts[b + 1] as number) - from;
    let packed: Buffer;
    if (this.source.kind === 'memory') {
      packed = this.source.bytes.subarray(from, from + length);
    } else {
      packed = Buffer.allocUnsafe(length);
      if (readSync(this.source.fd, packed, 0, length, from) !== length) throw new ShardFormatError('text.br', `short read of block ${b}`);
    }
    const raw = brotliDecompressSync(packed);
    const want = Math.min(this.blockBytes, this.textBytes - b * this.blockBytes);
    if (raw.length !== want) throw new ShardFormatError('text.br', `block ${b} holds ${raw.length} bytes, expected ${want}`);
    if (this.cache.size >= CACHE_BLOCKS) this.cache.delete(this.cache.keys().next().value as number);
    this.cache.set(b, raw);
    return raw;
  }
}
