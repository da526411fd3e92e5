import { totalmem } from 'node:os';
import { indexKind, MAX_SHARD_TEXT_BYTES, type ShardKind } from '../shard/index.ts';
import { defaultSorter, MAX_SORT_TEXT_BYTES, type SuffixSorter } from '../suffix-array/index.ts';
import { BuildError } from './errors.ts';

/**
 * Parts: a crawl period (month or year) larger than the part size is split into parts, each its own shard with its
 * own rank space. Part ids are the period id plus `.pNNN` (`2019-03.p001` … `2019-03.p999`), so plain string order
 * is chronological (`2019-03` < `2019-03.p001` < `2019-03.p002` < `2019-04`). A period that fits one part keeps its
 * plain id. Articles are never split: a part ends before the article that would take it past the part size (an
 * article larger than the part size becomes a part of its own).
 */
export const MAX_PARTS_PER_PERIOD = 999;

/** Beyond the sort itself: the offset table, write and hash slices, SQLite batches, Node's own heap. */
export const SORT_OVERHEAD_BYTES = 256 << 20;

/** The largest part: the format's shard limit, or less where the sort's suffix array cannot be one Buffer. */
export const MAX_PART_BYTES = Math.min(MAX_SHARD_TEXT_BYTES, MAX_SORT_TEXT_BYTES);

export const partShardId = (periodId: string, partIndex: number): string =>
  `${periodId}.p${String(partIndex + 1).padStart(3, '0')}`;

/** Peak RAM per text byte of indexing one part of `kind` with the addon's default sorter (overhead aside). */
export const indexBytesPerTextByte = (kind: ShardKind): number =>
  indexKind(kind).cost.peakBytesPerTextByte(defaultSorter());

/**
 * Peak RAM of indexing one part of `textBytes` with the addon's default sorter: the kind's cost model (its suffix
 * sort and what it builds beside it; src/shard/DESIGN.md, "The kind registry") plus the overhead.
 */
export const sortMemoryBytes = (textBytes: number, kind: ShardKind = 'sa'): number =>
  indexBytesPerTextByte(kind) * textBytes + SORT_OVERHEAD_BYTES;

/** The build's RAM budget when none is given: half the machine. */
export const defaultMemoryBytes = (): number => Math.floor(totalmem() / 2);

/**
 * The part size: as given (checked against the budget), else the largest part one sort can hold within the memory
 * budget, capped at MAX_PART_BYTES. Throws BuildError('invalid_option') with the numbers to change.
 * @example resolvePartBytes(16e9) // 1073741824 (MAX_PART_BYTES: 2^30 on 64-bit Node 20)
 */
export function resolvePartBytes(memoryBytes: number, partBytes?: number, kind: ShardKind = 'sa'): number {
  const gb = (n: number): string => `${(n / 1e9).toFixed(2)} GB`;
  if (!Number.isFinite(memoryBytes) || memoryBytes < sortMemoryBytes(1, kind)) {
    throw new BuildError(
      'invalid_option',
      `--memory ${gb(memoryBytes)} is too small; a build needs at least ${gb(sortMemoryBytes(1 << 20, kind))}`,
    );
  }
  const fitting = Math.min(
    MAX_PART_BYTES,
    Math.floor((memoryBytes - SORT_OVERHEAD_BYTES) / indexBytesPerTextByte(kind)),
  );
  if (partBytes === undefined) return fitting;
  if (!Number.isInteger(partBytes) || partBytes < 1 || partBytes > MAX_PART_BYTES) {
    throw new BuildError(
      'invalid_option',
      `--part-bytes must be an integer from 1 to ${MAX_PART_BYTES} (the largest part the suffix sort can hold), got ${partBytes}`,
    );
  }
  if (partBytes > fitting) {
    throw new BuildError(
      'invalid_option',
      `--part-bytes ${partBytes} needs about ${gb(sortMemoryBytes(partBytes, kind))} of RAM to sort, over the --memory budget of ${gb(memoryBytes)}; ` +
        `lower --part-bytes to at most ${fitting} or raise --memory to ${Math.ceil(sortMemoryBytes(partBytes, kind) / 1e8) / 10}`,
    );
  }
  return partBytes;
}

/** What the builder decided after reading, before sorting anything (logged by `news build`). */
export interface IndexPlan {
  readonly parts: number;
  /** Periods split into more than one part. */
  readonly splitPeriods: number;
  readonly largestPartBytes: number;
  readonly textBytes: number;
  readonly memoryBytes: number;
  /** How many parts sort at once at most: the largest ones that fit the budget together, never above `concurrency`. */
  readonly maxParallelSorts: number;
  /** Estimated peak RAM of the sorting phase. */
  readonly peakSortBytes: number;
  /** The suffix sorter the addon uses (libdivsufsort when installed, else our SA-IS). */
  readonly sorter: SuffixSorter;
}

/**
 * Plans the sorting phase from the parts' sizes, known once every article is read. Refuses, before any sort, a part
 * whose sort cannot fit the budget (only possible for a single article larger than the part size).
 */
export function planIndexing(
  partSizes: readonly { id: string; textBytes: number }[],
  memoryBytes: number,
  concurrency: number,
  kind: ShardKind = 'sa',
): IndexPlan {
  const sizes = [...partSizes].sort((a, b) => b.textBytes - a.textBytes);
  const largest = sizes[0];
  if (largest && sortMemoryBytes(largest.textBytes, kind) > memoryBytes) {
    throw new BuildError(
      'shard_too_large',
      `shard ${largest.id} holds one article of ${largest.textBytes} text bytes, which needs about ` +
        `${(sortMemoryBytes(largest.textBytes, kind) / 1e9).toFixed(2)} GB to index, over the --memory budget of ${(memoryBytes / 1e9).toFixed(2)} GB; raise --memory or leave that article out`,
    );
  }
  let parallel = 0;
  let peak = 0;
  for (const s of sizes.slice(0, concurrency)) {
    if (parallel > 0 && peak + sortMemoryBytes(s.textBytes, kind) > memoryBytes) break;
    peak += sortMemoryBytes(s.textBytes, kind);
    parallel++;
  }
  const periods = new Map<string, number>();
  for (const s of partSizes) {
    const period = s.id.replace(/\.p\d{3}$/, '');
    periods.set(period, (periods.get(period) ?? 0) + 1);
  }
  return {
    parts: partSizes.length,
    splitPeriods: [...periods.values()].filter((n) => n > 1).length,
    largestPartBytes: largest?.textBytes ?? 0,
    textBytes: partSizes.reduce((n, s) => n + s.textBytes, 0),
    memoryBytes,
    maxParallelSorts: Math.max(1, parallel),
    peakSortBytes: peak,
    sorter: defaultSorter(),
  };
}

/**
 * Disk the indexing phase needs beyond the parts' text files, which are already written when it is planned: the
 * kind's index files for every part, or, for a kind that removes a part's text once its files are written (which
 * frees more than they take), only for the parts indexed at once, the largest first.
 * @example diskBytesNeeded(planIndexing([{ id: '2024-03', textBytes: 1e9 }], 16e9, 2), 'sa') // ≈ 4.15 GB
 */
export function diskBytesNeeded(plan: IndexPlan, kind: ShardKind): number {
  const margin = 64 << 20;
  const { diskBytesPerTextByte, replacesText } = indexKind(kind).cost;
  const textBytes = replacesText ? plan.largestPartBytes * plan.maxParallelSorts : plan.textBytes;
  return diskBytesPerTextByte * textBytes + margin;
}

/**
 * Admits sorts while their summed memory stays within the budget (one always runs, so progress is guaranteed).
 * `take` picks the largest waiting part that fits what is free; `release` returns its memory. An open budget
 * (`open`) also takes parts while the input is still read (`push`), and `take` waits for more until `close`.
 */
export class SortBudget<T extends { readonly textBytes: number }> {
  private reserved = 0;
  private running = 0;
  private waiters: (() => void)[] = [];
  private closed: boolean;

  constructor(
    private readonly queue: T[],
    private readonly memoryBytes: number,
    private readonly kind: ShardKind = 'sa',
    open = false,
  ) {
    queue.sort((a, b) => b.textBytes - a.textBytes);
    this.closed = !open;
  }

  /** The next part to sort, once memory allows; undefined when none is left and none can come. */
  async take(): Promise<T | undefined> {
    for (;;) {
      if (this.queue.length === 0 && this.closed) return undefined;
      const free = this.memoryBytes - this.reserved;
      const at =
        this.queue.length === 0
          ? -1
          : this.running === 0
            ? 0
            : this.queue.findIndex((p) => sortMemoryBytes(p.textBytes, this.kind) <= free);
      if (at !== -1) {
        const [part] = this.queue.splice(at, 1) as [T];
        this.reserved += sortMemoryBytes(part.textBytes, this.kind);
        this.running++;
        return part;
      }
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  /** Adds a part to an open budget (a part closed while the input is still read). */
  push(part: T): void {
    if (this.closed) throw new Error('SortBudget.push after close');
    this.queue.push(part);
    this.queue.sort((a, b) => b.textBytes - a.textBytes);
    this.wake();
  }

  /** No more parts will come; `drop` also forgets the waiting ones (a failed build starts no new sort). */
  close(drop = false): void {
    this.closed = true;
    if (drop) this.queue.length = 0;
    this.wake();
  }

  release(part: T): void {
    this.reserved -= sortMemoryBytes(part.textBytes, this.kind);
    this.running--;
    this.wake();
  }

  private wake(): void {
    const waiting = this.waiters;
    this.waiters = [];
    for (const wake of waiting) wake();
  }
}
