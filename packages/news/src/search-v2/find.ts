import type { OpenRelease, ShardHandle } from '../release/types.ts';
import { WorkBudget } from '../work-budget/index.ts';
import { V2Error } from './errors.ts';
import { lookupIndex } from './release-lookup.ts';
import { RequestMatcher } from './matching.ts';
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
 * @example (await find(release, { index: 'news', query: 'Berlin', year_min: 2016 })).segment_by_shard // [[lo, hi], …]
 */
export async function find(release: OpenRelease, request: FindRequest, work: WorkBudget = WorkBudget.unlimited()): Promise<FindResult> {
  if (request.query.length === 0) {
    throw new V2Error('invalid_query', 'find needs a non-empty query');
  }
  const matcher = new RequestMatcher(request.query, request, work);
  const segments: (readonly [number, number])[] = [];
  const shardIds: string[] = [];
  const years: string[] = [];
  let total = 0;
  for (const shard of shardsInYears(release, request)) {
    const m = matcher.match(shard);
    // One entry per spelling found (case-insensitive: several per shard, in rank order); a shard without any
    // keeps one empty entry, so every selected shard is listed.
    const intervals = m.intervals.length === 0 ? [{ lo: 0, hi: 0 }] : m.intervals;
    for (const { lo, hi } of intervals) {
      segments.push([lo, hi]);
      shardIds.push(shard.shardId);
      years.push(shard.year);
    }
    total += await matcher.count(shard);
  }
  return { index_version: release.indexVersion, total_occurrences: total, segment_by_shard: segments, shard_ids: shardIds, shard_years: years };
}

/** v2 count: occurrences of the query in the selected years (the empty query counts text bytes). */
export async function count(release: OpenRelease, request: FindRequest, work: WorkBudget = WorkBudget.unlimited()): Promise<CountResult> {
  if (request.query.length === 0) {
    // The empty query counts text bytes (spec), whatever the matching options.
    return { index_version: release.indexVersion, count: shardsInYears(release, request).reduce((sum, s) => sum + s.reader.count(new Uint8Array(0)), 0) };
  }
  const matcher = new RequestMatcher(request.query, request, work);
  let total = 0;
  for (const s of shardsInYears(release, request)) total += await matcher.count(s);
  return { index_version: release.indexVersion, count: total };
}
