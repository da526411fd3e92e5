import type { OpenRelease, ShardHandle } from '../release/types.ts';
import { V2Error } from './errors.ts';
import { encodeQuery, lookupIndex } from './release-lookup.ts';
import type { CountResult, FindRequest, FindResult } from './types.ts';

/** The index's shards whose crawl year lies in [year_min, year_max] (inclusive; absent = unbounded), in chronological order. */
export function shardsInYears(release: OpenRelease, request: FindRequest): readonly ShardHandle[] {
  const index = lookupIndex(release, request.index);
  const min = request.year_min ?? -Infinity;
  const max = request.year_max ?? Infinity;
  if (min > max) {
    throw new V2Error('invalid_year_range', 'year_min must not be greater than year_max', {
      year_min: request.year_min ?? null,
      year_max: request.year_max ?? null,
    });
  }
  return index.shards.filter((s) => {
    const year = Number(s.year);
    return year >= min && year <= max;
  });
}

/**
 * v2 find: per selected shard, the half-open rank interval of the query, with shard ids and years aligned.
 * Metadata filters do not apply; `total_occurrences` is the sum of the interval lengths.
 *
 * @example find(release, { index: 'news', query: 'Berlin', year_min: 2016 }).segment_by_shard // [[lo, hi], …]
 */
export function find(release: OpenRelease, request: FindRequest): FindResult {
  if (request.query.length === 0) {
    throw new V2Error('invalid_query', 'find needs a non-empty query');
  }
  const query = encodeQuery(request.query);
  const shards = shardsInYears(release, request);
  const segments = shards.map((s) => {
    const { lo, hi } = s.reader.find(query);
    return [lo, hi] as const;
  });
  return {
    index_version: release.indexVersion,
    total_occurrences: segments.reduce((sum, [lo, hi]) => sum + (hi - lo), 0),
    segment_by_shard: segments,
    shard_ids: shards.map((s) => s.shardId),
    shard_years: shards.map((s) => s.year),
  };
}

/** v2 count: occurrences of the query in the selected years (the empty query counts text bytes). */
export function count(release: OpenRelease, request: FindRequest): CountResult {
  const query = encodeQuery(request.query);
  const total = shardsInYears(release, request).reduce((sum, s) => sum + s.reader.count(query), 0);
  return { index_version: release.indexVersion, count: total };
}
