import { closeSync } from 'node:fs';
import type { DocTable } from '../doc-table.ts';
import { POINTER_BYTES } from '../format.ts';
import { ShardReaderBase } from '../reader-base.ts';
import type { RankInterval, ShardStats } from '../types.ts';
import { ShardFormatError } from '../errors.ts';
import type { FmIndex } from './fm-index.ts';
import type { NativeLocator } from './native-locate.ts';
import type { SaSamples } from './sa-samples.ts';

/** Where a reader's text comes from: compressed blocks (text-blocks.ts) or the index itself (index-text.ts). */
export interface ShardText {
  /** Text bytes [start, end), 0 ≤ start ≤ end ≤ textBytes. */
  read(start: number, end: number): Buffer;
}

/**
 * The compressed kind behind the ShardReader contract: count/find by backward search over the FM-index,
 * locate by LF steps to the nearest SA sample (in C when the addon is built: native-locate.ts), windows and articles from the compressed text blocks, or for a `from-index` shard (short documents) read back from the FM-index.
 * Ranks are the SA kind's: FM row r + 1 is suffix-array rank r (row 0 is the virtual sentinel's suffix).
 */
export class CompressedShardReader extends ShardReaderBase {
  readonly kind = 'compressed' as const;
  readonly stats: ShardStats;
  private closed = false;

  constructor(
    private readonly fm: FmIndex,
    private readonly samples: SaSamples,
    private readonly text: ShardText,
    docs: DocTable,
    /** Open file descriptor of the text blocks in disk mode, closed with the reader. */
    private readonly fd: number | undefined,
    /** The C walk over fm's and samples' arrays; undefined walks in TypeScript (`walkToSample`). */
    private readonly native: NativeLocator | undefined,
  ) {
    super(docs);
    this.stats = { textBytes: fm.rows - 1, docCount: docs.docCount, pointerBytes: POINTER_BYTES };
  }

  /** Stops once the interval is empty (FmIndex.count): most parts of a month hold no occurrence of a long query. */
  override count(query: Uint8Array): number {
    if (query.length === 0 || this.stats.textBytes === 0) return super.count(query);
    const rows = this.native === undefined ? this.fm.count(query) : this.native.count(query);
    if (rows < 0) throw new ShardFormatError('fm-bits.u32', 'a search left the index: the shard is damaged');
    return rows;
  }

  find(query: Uint8Array): RankInterval {
    const n = this.stats.textBytes;
    if (query.length === 0 || n === 0) return { lo: 0, hi: query.length === 0 ? n : 0 };
    const found = this.native === undefined ? this.fm.search(query) : this.native.search(query);
    if (found === undefined) throw new ShardFormatError('fm-bits.u32', 'a search left the index: the shard is damaged');
    return { lo: found.sp - 1, hi: found.ep - 1 };
  }

  close(): void {
    if (this.fd !== undefined && !this.closed) closeSync(this.fd);
    this.closed = true;
  }

  readText(start: number, end: number): Buffer {
    return this.text.read(Math.max(0, start), Math.min(this.stats.textBytes, end));
  }

  /** SA[rank]: LF steps back to a sampled row (at most sampleRate − 1 of them), or to text position 0. */
  protected textPosition(rank: number): number {
    this.assertRank(rank);
    if (this.native === undefined) return walkToSample(this.fm, this.samples, rank + 1);
    return checkedPosition(this.native.position(rank + 1), rank);
  }

  /** Every rank's walk in one native call (fmLocateMany: 16 walks interleaved, their cache misses overlapping). */
  protected override textPositions(ranks: readonly number[]): number[] {
    if (this.native === undefined) return super.textPositions(ranks);
    const positions = this.native.positions(Float64Array.from(ranks, (rank) => rank + 1));
    return Array.from(positions, (pos, k) => checkedPosition(pos, ranks[k] as number));
  }
}

/** The C walk's answer for `rank`, or ShardFormatError when it left the index (−1). */
function checkedPosition(pos: number, rank: number): number {
  if (pos < 0) throw new ShardFormatError('fm-bits.u32', `locate of rank ${rank} left the index: the shard is damaged`);
  return pos;
}

/** The TypeScript locate walk (the reference the C walk is tested against): text position of FM row `row`. */
export function walkToSample(fm: FmIndex, samples: SaSamples, row: number): number {
  for (let steps = 0; ; steps++) {
    const sampled = samples.at(row);
    if (sampled >= 0) return sampled + steps;
    row = fm.lf(row);
    if (row < 0) return steps;
  }
}
