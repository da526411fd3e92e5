import type { OpenRelease } from '../release/types.ts';
import type { WorkerIdentity } from '../protocol/index.ts';

/**
 * The identity a worker reports for health: the release, exactly the shards it serves, and the release's whole
 * shard set (so a gateway learns from any one worker which shards need a replica).
 */
export function describeRelease(release: OpenRelease, shardSpec: string | null = null): WorkerIdentity {
  return {
    indexVersion: release.indexVersion,
    shardSpec,
    indexes: [...release.indexes.values()].map((index) => ({
      name: index.name,
      hasCountryAttribution: index.hasCountryAttribution,
      shards: index.shards.map((s) => ({
        shardId: s.shardId,
        year: s.year,
        docBase: s.docBase,
        docCount: s.reader.stats.docCount,
        textBytes: s.reader.stats.textBytes,
      })),
      releaseShards: (index.releaseShards ?? index.shards).map((s) => ({ shardId: s.shardId, year: s.year })),
    })),
  };
}
