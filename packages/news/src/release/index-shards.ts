import { statfs } from 'node:fs/promises';
import { indexKind, type ShardFileSet, type ShardKind } from '../shard/index.ts';
import type { ClosedShard } from './article-sink.ts';
import type { ResolvedBuildOptions } from './build-options.ts';
import type { Progress } from './build-release.ts';
import type { StageClock } from './build-stages.ts';
import { BuildError } from './errors.ts';
import { resolveRel, titlesRelDir } from './layout.ts';
import { diskBytesNeeded, planIndexing, SortBudget } from './part-plan.ts';
import { ShardWordTables, type WordCountsEntry } from './word-counts/index.ts';

const interrupted = () => new BuildError('aborted', 'build interrupted; nothing was written, run news build again');

/** A finished shard: its place in the year's doc_ix space and its files as the engine reports them. */
export interface IndexedShard {
  readonly shardId: string;
  readonly year: string;
  readonly relDir: string;
  readonly docBase: number;
  readonly crawlPeriod: string;
  readonly part: number;
  readonly parts: number;
  readonly files: ShardFileSet;
  /** Its headline index (same kind, same doc numbers), in `titlesRelDir(relDir)`. */
  readonly titles: ShardFileSet;
  /** Its word-count table; absent when the build wrote none (`wordCounts: false`). */
  readonly wordCounts?: WordCountsEntry | undefined;
}

/** What indexing needs of a part: where its text is and how large it is (its id is final once it is closed). */
export interface PartToIndex {
  readonly shardId: string;
  readonly relDir: string;
  readonly textBytes: number;
}

/**
 * Builds every shard's index, up to `options.concurrency` at a time (the sort runs off the main thread, so two
 * shards use both cores) and only as many as fit `options.memoryBytes` together, largest waiting part first.
 * Parts can be added while the input is still read (`add`: a month's part is final once the next one opens), so
 * the second core sorts while the first one reads; `finish` adds the rest once every part's size is known and waits.
 */
export class ShardIndexer {
  private readonly budget: SortBudget<PartToIndex>;
  private readonly results = new Map<string, { files: ShardFileSet; titles: ShardFileSet }>();
  private readonly added = new Set<string>();
  private readonly early = new Set<string>();
  private readonly workers: Promise<PromiseSettledResult<void>[]>;
  private failure: unknown;
  private readonly words: ShardWordTables | undefined;
  private indexedBytes = 0;
  private shardsDone = 0;

  constructor(
    private readonly root: string,
    private readonly options: ResolvedBuildOptions,
    private readonly progress: Progress,
    private readonly clock: StageClock,
  ) {
    this.budget = new SortBudget<PartToIndex>([], options.memoryBytes, options.kind, true);
    this.words =
      options.wordCounts === false
        ? undefined
        : new ShardWordTables(root, options.indexName, Math.max(1, options.concurrency), (ms) =>
            clock.add('words', ms),
          );
    // allSettled: never rejects, and a failed shard must not leave another sort writing into a folder being removed.
    this.workers = Promise.allSettled(
      Array.from({ length: Math.max(1, options.concurrency) }, () =>
        this.work().catch((e: unknown) => {
          this.failure ??= e;
          this.budget.close(true);
          throw e;
        }),
      ),
    );
  }

  /** Throws the first indexing failure, so that the reader stops instead of reading on for nothing. */
  throwIfFailed(): void {
    if (this.failure !== undefined) throw this.failure;
  }

  /**
   * Queues a part whose text is complete while the input is still read. Its own limit is checked now (a part the
   * memory budget cannot index is a single article over the part size): the rest of the plan waits for the read.
   */
  addEarly(part: PartToIndex): void {
    planIndexing(
      [{ id: part.shardId, textBytes: part.textBytes }],
      this.options.memoryBytes,
      this.options.concurrency,
      this.options.kind,
    );
    this.early.add(part.shardId);
    this.add(part);
  }

  /**
   * Every part is closed: checks the disk the parts not yet started need, queues them, waits for all, and returns
   * the shards in the order given (chronological).
   */
  async finish(shards: readonly ClosedShard[]): Promise<IndexedShard[]> {
    this.throwIfFailed();
    const waiting = shards.filter((s) => !this.added.has(s.shardId));
    if (waiting.length > 0) {
      const plan = planIndexing(
        waiting.map((s) => ({ id: s.shardId, textBytes: s.textBytes })),
        this.options.memoryBytes,
        this.options.concurrency,
        this.options.kind,
      );
      await refuseShortDisk(this.root, diskBytesNeeded(plan, this.options.kind), this.options.kind);
    }
    const indexTotalBytes = shards.reduce((n, s) => n + s.textBytes, 0);
    this.progress.update(
      {
        phase: 'index',
        indexTotalBytes,
        shardsTotal: shards.length,
        indexedBytes: this.indexedBytes,
        shardsDone: this.shardsDone,
      },
      true,
    );
    for (const s of waiting) this.add(s);
    this.budget.close();
    await this.workers;
    this.throwIfFailed();
    const words = await this.words?.finish();
    return shards.map((s) => ({
      shardId: s.shardId,
      year: s.year,
      relDir: s.relDir,
      docBase: s.docBase,
      crawlPeriod: s.crawlPeriod,
      part: s.part,
      parts: s.parts,
      ...(this.results.get(s.shardId) as { files: ShardFileSet; titles: ShardFileSet }),
      wordCounts: words?.get(s.shardId),
    }));
  }

  /** After a failure elsewhere: starts no new part and waits for the running ones (their sort cannot be cut short). */
  async stop(): Promise<void> {
    this.budget.close(true);
    await this.workers;
    await this.words?.stop();
  }

  private add(part: PartToIndex): void {
    // After a failure no sort starts: the reader stops at its next check (throwIfFailed).
    if (this.added.has(part.shardId) || this.failure !== undefined) return;
    this.added.add(part.shardId);
    // The word counts start as soon as the text is final, on their own thread, beside the reader and the sorts.
    this.words?.start(part.shardId, part.relDir);
    this.budget.push(part);
  }

  private async work(): Promise<void> {
    const { options } = this;
    for (let s = await this.budget.take(); s && this.failure === undefined; s = await this.budget.take()) {
      try {
        if (options.signal?.aborted) throw interrupted();
        if (this.early.has(s.shardId)) {
          // Checked alone: the whole plan's disk is checked once the read ends, for the parts not started by then.
          const alone = planIndexing([{ id: s.shardId, textBytes: s.textBytes }], options.memoryBytes, 1, options.kind);
          await refuseShortDisk(this.root, diskBytesNeeded(alone, options.kind), options.kind);
        }
        // The headline index after the articles' own, in the same slot: titles are ~1% of the text, so the part's
        // memory and disk plan (sized for its text) holds it too.
        const index = (rel: string, shortDocuments = false) =>
          indexKind(options.kind)
            .index(resolveRel(this.root, rel), { signal: options.signal, shortDocuments })
            .catch((e: unknown) => {
              // The signal's own reason says nothing to a user: the build's message does.
              throw options.signal?.aborted ? interrupted() : e;
            });
        const files = await this.clock.time('index', () => index(s.relDir));
        // Headlines are short: the compressed kind reads them back from the index instead of storing them twice.
        const titles = await this.clock.time('titles', () => index(titlesRelDir(s.relDir), true));
        this.results.set(s.shardId, { files, titles });
        this.indexedBytes += s.textBytes;
        this.shardsDone++;
        this.progress.update({ indexedBytes: this.indexedBytes, shardsDone: this.shardsDone });
      } finally {
        this.budget.release(s);
      }
    }
  }
}

/** Refuses an indexing phase the disk cannot hold (`diskBytesNeeded`), before its first sort. */
async function refuseShortDisk(dir: string, needed: number, kind: ShardKind): Promise<void> {
  const fs = await statfs(dir);
  const free = fs.bavail * fs.bsize;
  if (free < needed) {
    throw new BuildError(
      'no_space',
      `${indexKind(kind).filesNoun} need about ${(needed / 1e9).toFixed(2)} GB more disk beside ${dir}, but only ${(free / 1e9).toFixed(2)} GB is free; free some space or build to another disk (--out)`,
    );
  }
}
