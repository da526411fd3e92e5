import { closeSync, readSync } from 'node:fs';
import type { DocTable } from '../doc-table.ts';
import { ShardReaderBase } from '../reader-base.ts';
import type { RankInterval, ShardStats } from '../types.ts';
import { narrowInterval, type SuffixByte } from './narrow.ts';

/** Once a search interval's pointers fit in this many bytes, read them in one go instead of one by one. */
const SA_BLOCK_BYTES = 4096;
/** Text bytes read per probe step. */
const PROBE_CHUNK = 256;

/**
 * Positional reads of the suffix-array and text files for every probe, so RSS does not grow with the shard;
 * only the document table (8 bytes per article) and the header live in RAM. Not safe to share across threads.
 */
export class DiskShardReader extends ShardReaderBase {
  readonly kind = 'sa' as const;
  readonly stats: ShardStats;
  private readonly n: number;
  private readonly ptr = Buffer.alloc(4);
  private readonly block = Buffer.alloc(SA_BLOCK_BYTES);
  private blockLo = 0;
  private blockHi = 0;
  private readonly probe = Buffer.alloc(PROBE_CHUNK);
  private closed = false;

  constructor(
    private readonly textFd: number,
    private readonly saFd: number,
    docs: DocTable,
  ) {
    super(docs);
    this.n = docs.textBytes;
    this.stats = { textBytes: this.n, docCount: docs.docCount, pointerBytes: 4 };
  }

  find(query: Uint8Array): RankInterval {
    if (query.length === 0) return { lo: 0, hi: this.n };
    // The lower-bound search narrows where the upper one must end, as in the memory reader.
    const out = { limit: this.n };
    const lo = this.bound(query, 0, this.n, false, out);
    const hi = this.bound(query, lo, out.limit, true);
    return { lo, hi };
  }

  narrow(iv: RankInterval, depth: number, byte: number): RankInterval {
    if (iv.hi - iv.lo <= SA_BLOCK_BYTES / 4 && iv.hi > iv.lo) this.readBlock(iv.lo, iv.hi);
    return narrowInterval(iv, depth, byte, this.suffixByte);
  }

  private readonly suffixByte: SuffixByte = (r, depth) => {
    const p = this.pointer(r) + depth;
    if (p >= this.n) return -1;
    readSync(this.textFd, this.probe, 0, 1, p);
    return this.probe[0] as number;
  };

  close(): void {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.textFd);
    closeSync(this.saFd);
  }

  /** Same search as the memory reader's, with each probe read from the files (see memory-reader.ts). */
  private bound(q: Uint8Array, lo: number, hi: number, upper: boolean, out?: { limit: number }): number {
    const m = q.length;
    const probe = this.probe;
    let llcp = 0;
    let rlcp = 0;
    while (lo < hi) {
      if ((hi - lo) * 4 <= SA_BLOCK_BYTES && (lo < this.blockLo || hi > this.blockHi)) this.readBlock(lo, hi);
      const mid = (lo + hi) >>> 1;
      const pos = this.pointer(mid);
      let k = llcp < rlcp ? llcp : rlcp;
      let c = 0;
      let j = 0;
      let got = 0;
      while (k < m) {
        if (j >= got) {
          // Most probes differ within a few bytes: read the suffix in small chunks, not all |query| bytes.
          got = readSync(this.textFd, probe, 0, Math.min(m - k, PROBE_CHUNK, this.n - pos - k), pos + k);
          j = 0;
          if (got === 0) {
            c = -1; // the suffix ends first: it sorts before the query
            break;
          }
        }
        c = (probe[j] as number) - (q[k] as number);
        if (c !== 0) break;
        k++;
        j++;
      }
      if (c < 0 || (c === 0 && upper)) {
        lo = mid + 1;
        llcp = k;
      } else {
        hi = mid;
        rlcp = k;
        if (c > 0 && out !== undefined) out.limit = mid;
      }
    }
    return lo;
  }

  /** Caches SA[lo, hi); the suffix array never changes, so the block stays valid until replaced. */
  private readBlock(lo: number, hi: number): void {
    readSync(this.saFd, this.block, 0, (hi - lo) * 4, lo * 4);
    this.blockLo = lo;
    this.blockHi = hi;
  }

  private pointer(rank: number): number {
    if (rank >= this.blockLo && rank < this.blockHi) return this.block.readUInt32LE((rank - this.blockLo) * 4);
    readSync(this.saFd, this.ptr, 0, 4, rank * 4);
    return this.ptr.readUInt32LE(0);
  }

  protected textPosition(rank: number): number {
    return this.pointer(this.checkRank(rank));
  }

  private checkRank(rank: number): number {
    if (!Number.isInteger(rank) || rank < 0 || rank >= this.n) {
      throw new RangeError(`rank ${rank} is outside [0, ${this.n})`);
    }
    // Ranks tend to come in runs (occurrence pages): read the pointers from here on in one block.
    if (rank < this.blockLo || rank >= this.blockHi) this.readBlock(rank, Math.min(this.n, rank + SA_BLOCK_BYTES / 4));
    return rank;
  }

  readText(start: number, end: number): Buffer {
    start = Math.max(0, start);
    end = Math.min(this.n, end);
    if (end <= start) return Buffer.alloc(0);
    const out = Buffer.allocUnsafe(end - start);
    let done = 0;
    while (done < out.length) {
      const got = readSync(this.textFd, out, done, out.length - done, start + done);
      if (got === 0) throw new Error(`text file ended early at ${start + done} (shard changed on disk?)`);
      done += got;
    }
    return out;
  }
}
