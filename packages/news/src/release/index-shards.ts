import { indexCompressedShard, indexShard, type ShardFileSet } from '../shard/index.ts';
import type { ClosedShard } from './article-sink.ts';
import type { BuildReleaseOptions } from './build-options.ts';
import type { Progress } from './build-release.ts';
import { BuildError } from './errors.ts';
import { resolveRel } from './layout.ts';

/** A finished shard: its place in the year's doc_ix space and its files as the engine reports them. */
export interface IndexedShard {
  readonly shardId: string;
  readonly year: string;
  readonly relDir: string;
  readonly docBase: number;
  readonly files: ShardFileSet;
}

/**
 * Builds every shard's suffix array, `options.concurrency` shards at a time (the sort runs off the main thread,
 * so two shards use both cores). Largest first, so the last shard to finish is a small one.
 * Returns the shards in the order given (chronological).
 */
export async function indexShards(root: string, shards: readonly ClosedShard[], options: BuildReleaseOptions, progress: Progress): Promise<IndexedShard[]> {
  const queue = [...shards].sort((a, b) => b.textBytes - a.textBytes);
  const indexTotalBytes = shards.reduce((n, s) => n + s.textBytes, 0);
  let indexedBytes = 0;
  let shardsDone = 0;
  progress.update({ phase: 'index', indexTotalBytes, shardsTotal: shards.length, indexedBytes, shardsDone }, true);
  const results = new Map<string, ShardFileSet>();
  let failure: unknown;

  const worker = async (): Promise<void> => {
    for (let s = queue.shift(); s && failure === undefined; s = queue.shift()) {
      if (options.signal?.aborted) throw new BuildError('aborted', 'build interrupted; nothing was written, run news build again');
      const files = await (options.kind === 'compressed' ? indexCompressedShard : indexShard)(resolveRel(root, s.relDir));
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

  return shards.map((s) => ({ shardId: s.shardId, year: s.year, relDir: s.relDir, docBase: s.docBase, files: results.get(s.shardId) as ShardFileSet }));
}
