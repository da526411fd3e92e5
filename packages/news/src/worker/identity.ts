import type { OpenRelease } from '../release/types.ts';
import type { WorkerIdentity } from '../protocol/index.ts';

/** The identity a worker reports for health: the release and its whole shard set, per index. */
export function describeRelease(release: OpenRelease): WorkerIdentity {
  return {
    indexVersion: release.indexVersion,
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
    })),
  };
}
