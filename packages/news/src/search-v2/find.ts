import type { OpenRelease, ShardHandle } from '../release/types.ts';
import { WorkBudget } from '../work-budget/index.ts';
import { V2Error } from './errors.ts';
import { lookupIndex } from './release-lookup.ts';
import { RequestMatcher } from './matching.ts';
import { positionIn } from './shard-order.ts';
import type { CombineContext } from './calls/define.ts';
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
export async function find(
  release: OpenRelease,
  request: FindRequest,
  work: WorkBudget = WorkBudget.unlimited(),
): Promise<FindResult> {
  if (request.query.length === 0) {
    throw new V2Error('invalid_query', 'find needs a non-empty query');
  }
  const matcher = new RequestMatcher(request.query, request, work);
  const shards = shardsInYears(release, request);
  const parts: FindResult[] = [];
  for (const shard of shards) {
    const m = matcher.match(shard);
    // One entry per spelling found (case-insensitive: several per shard, in rank order); a shard without any
    // keeps one empty entry, so every selected shard is listed.
    const intervals = m.intervals.length === 0 ? [{ lo: 0, hi: 0 }] : m.intervals;
    parts.push({
      index_version: release.indexVersion,
      total_occurrences: await matcher.count(shard),
      segment_by_shard: intervals.map(({ lo, hi }) => [lo, hi] as const),
      shard_ids: intervals.map(() => shard.shardId),
      shard_years: intervals.map(() => shard.year),
    });
  }
  return combineFind(parts, { order: shards.map((s) => s.shardId), indexVersion: release.indexVersion });
}

/** find's answers for disjoint shard sets as one answer: entries in release order, totals added. */
export function combineFind(parts: readonly FindResult[], ctx: CombineContext): FindResult {
  // Every entry sorted by its shard's position in the release; the sort is stable, so a shard's several entries
  // (one per spelling) keep their rank order.
  const pos = positionIn(ctx.order);
  const segments: (readonly [number, number])[] = [];
  const shardIds: string[] = [];
  const years: string[] = [];
  const entries: { at: number; part: FindResult; i: number }[] = [];
  for (const part of parts) part.shard_ids.forEach((id, i) => entries.push({ at: pos(id), part, i }));
  entries.sort((a, b) => a.at - b.at);
  let total = 0;
  for (const part of parts) total += part.total_occurrences;
  for (const { part, i } of entries) {
    segments.push(part.segment_by_shard[i] as readonly [number, number]);
    shardIds.push(part.shard_ids[i] as string);
    years.push(part.shard_years[i] as string);
  }
  return {
    index_version: ctx.indexVersion,
    total_occurrences: total,
    segment_by_shard: segments,
    shard_ids: shardIds,
    shard_years: years,
  };
}

/** v2 count: occurrences of the query in the selected years (the empty query counts text bytes). */
export async function count(
  release: OpenRelease,
  request: FindRequest,
  work: WorkBudget = WorkBudget.unlimited(),
): Promise<CountResult> {
  const parts: CountResult[] = [];
  const shards = shardsInYears(release, request);
  if (request.query.length === 0) {
    // The empty query counts text bytes (spec), whatever the matching options.
    for (const s of shards)
      parts.push({ index_version: release.indexVersion, count: s.reader.count(new Uint8Array(0)) });
  } else {
    const matcher = new RequestMatcher(request.query, request, work);
    for (const s of shards) parts.push({ index_version: release.indexVersion, count: await matcher.count(s) });
  }
  return combineCount(parts, { order: [], indexVersion: release.indexVersion });
}

/** count's answers for disjoint shard sets as one answer: the counts added. */
export function combineCount(parts: readonly CountResult[], ctx: CombineContext): CountResult {
  return { index_version: ctx.indexVersion, count: parts.reduce((n, p) => n + p.count, 0) };
}
