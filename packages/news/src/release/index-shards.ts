import { indexCompressedShard, indexShard, type ShardFileSet } from '../shard/index.ts';
import type { ClosedShard } from './article-sink.ts';
import type { ResolvedBuildOptions } from './build-options.ts';
import type { Progress } from './build-release.ts';
import { BuildError } from './errors.ts';
import { resolveRel } from './layout.ts';
import { SortBudget } from './part-plan.ts';

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
}

/**
 * Builds every shard's suffix array, up to `options.concurrency` shards at a time (the sort runs off the main
 * thread, so two shards use both cores) and only as many as fit `options.memoryBytes` together. Largest first, so
 * the last shard to finish is a small one. Returns the shards in the order given (chronological).
 */
export async function indexShards(root: string, shards: readonly ClosedShard[], options: ResolvedBuildOptions, progress: Progress): Promise<IndexedShard[]> {
  const budget = new SortBudget([...shards], options.memoryBytes, options.kind);
  const indexTotalBytes = shards.reduce((n, s) => n + s.textBytes, 0);
  let indexedBytes = 0;
  let shardsDone = 0;
  progress.update({ phase: 'index', indexTotalBytes, shardsTotal: shards.length, indexedBytes, shardsDone }, true);
  const results = new Map<string, ShardFileSet>();
  let failure: unknown;

  const worker = async (): Promise<void> => {
    for (let s = await budget.take(); s && failure === undefined; s = await budget.take()) {
      if (options.signal?.aborted) throw interrupted();
      const files = await (options.kind === 'compressed' ? indexCompressedShard : indexShard)(resolveRel(root, s.relDir), { signal: options.signal })
        .catch((e: unknown) => {
          // The signal's own reason says nothing to a user: the build's message does.
          throw options.signal?.aborted ? interrupted() : e;
        })
        .finally(() => budget.release(s));
      results.set(s.shardId, files);
      indexedBytes += s.textBytes;
      shardsDone++;
      progress.update({ indexedBytes, shardsDone });
    }
  };
  // allSettled: a failed shard must not leave another sort writing into the folder we are about to remove.
  const settled = await Promise.allSettled(Array.from({ length: Math.min(options.concurrency, shards.length) }, () =>
    worker().catch((e: unknown) => {
      failure ??= e;
      throw e;
    })));
  const rejected = settled.find((r) => r.status === 'rejected');
  if (rejected) throw failure ?? (rejected as PromiseRejectedResult).reason;

  return shards.map((s) => ({
    shardId: s.shardId, year: s.year, relDir: s.relDir, docBase: s.docBase, crawlPeriod: s.crawlPeriod, part: s.part, parts: s.parts,
    files: results.get(s.shardId) as ShardFileSet,
  }));
}
