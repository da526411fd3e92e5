import type { OpenRelease, ReleaseIndex, ShardHandle, MetadataStore } from '../release/types.ts';
import type { ShardMatch } from '../matching/index.ts';
import { V2Error } from './errors.ts';

const utf8 = new TextEncoder();

/** The query's UTF-8 bytes: matching is byte-exact (design doc, "Matching"). */
export function encodeQuery(query: string): Uint8Array {
  return utf8.encode(query);
}

/**
 * Throws `stale_index_version` unless the continuation was made against the release served now.
 * Every continuation calls this first, before any rank or reference is looked at.
 */
export function assertIndexVersion(release: OpenRelease, expected: string): void {
  if (expected !== release.indexVersion) {
    throw new V2Error(
      'stale_index_version',
      `expected_index_version ${JSON.stringify(expected)} is not the release served now (${JSON.stringify(release.indexVersion)}); ` +
        'run find again and continue with the index_version it returns',
      { expected_index_version: expected, index_version: release.indexVersion },
    );
  }
}

export function lookupIndex(release: OpenRelease, name: string): ReleaseIndex {
  const index = release.indexes.get(name);
  if (index === undefined) {
    throw new V2Error(
      'unknown_index',
      `index ${JSON.stringify(name)} is not in this release; see available_indexes in /api/v2/info`,
      {
        index: name,
      },
    );
  }
  return index;
}

export function lookupShard(index: ReleaseIndex, shardId: string): ShardHandle {
  const shard = index.shards.find((s) => s.shardId === shardId);
  if (shard === undefined) {
    throw new V2Error(
      'unknown_shard',
      `shard_id ${JSON.stringify(shardId)} is not in index ${JSON.stringify(index.name)}; use a shard_id returned by find`,
      {
        shard_id: shardId,
      },
    );
  }
  return shard;
}

/** A crawl year as the release names it; anything else in a reference is the client's mistake, not a missing store. */
const CRAWL_YEAR = /^[0-9]{4}$/;

export function lookupYearStore(index: ReleaseIndex, year: string): MetadataStore {
  const store = index.metadata(year);
  if (store !== undefined) return store;
  // The release's years, not only this worker's: a worker serving a subset names the same years as one serving all.
  const releaseYears = new Set((index.releaseShards ?? index.shards).map((s) => s.year));
  const years = [...releaseYears].join(', ') || 'no years';
  if (!CRAWL_YEAR.test(year)) {
    throw new V2Error(
      'invalid_year',
      `${JSON.stringify(year)} is not a crawl year (four digits, e.g. "2019"); index ${index.name} has ${years}`,
      { year },
    );
  }
  if (!releaseYears.has(year)) {
    throw new V2Error(
      'unknown_year',
      `crawl year ${JSON.stringify(year)} is not in index ${index.name} (it has ${years}); use a year returned by find`,
      { year },
    );
  }
  // Spec §7: a year of the release whose store is not loaded is a 503; it may come back.
  throw new V2Error(
    'year_store_missing',
    `no metadata store for crawl year ${JSON.stringify(year)} is loaded (index ${index.name} has ${years}); retry later`,
    { year },
  );
}

export interface RankRange {
  readonly rankFrom: number;
  readonly rankTo: number;
}

/**
 * Checks a continuation's half-open rank range [rankFrom, rankTo) against the shard size, the per-call limit
 * and, when a query is given, the query's intervals in that shard (one per spelling found; the range must lie
 * inside one of them).
 */
export function checkRankRange(
  shard: ShardHandle,
  range: RankRange,
  limit: number,
  match: ShardMatch | undefined,
): void {
  const { rankFrom, rankTo } = range;
  const size = shard.reader.stats.textBytes;
  const ctx = { shard_id: shard.shardId, rank_from: rankFrom, rank_to: rankTo };
  if (!Number.isSafeInteger(rankFrom) || !Number.isSafeInteger(rankTo) || rankFrom < 0 || rankTo < rankFrom) {
    throw new V2Error('rank_out_of_range', 'rank_from and rank_to must be integers with 0 ≤ rank_from ≤ rank_to', ctx);
  }
  if (rankTo - rankFrom > limit) {
    throw new V2Error(
      'too_many_ranks',
      `at most ${limit} ranks per call; split [rank_from, rank_to) into smaller pages`,
      {
        ...ctx,
        limit,
      },
    );
  }
  if (rankTo > size) {
    throw new V2Error('rank_out_of_range', `rank_to must not exceed the shard size ${size}`, {
      ...ctx,
      shard_size: size,
    });
  }
  if (match !== undefined && !match.intervals.some((iv) => rankFrom >= iv.lo && rankTo <= iv.hi)) {
    if (match.intervals.length !== 1) {
      const shown = match.intervals
        .slice(0, 5)
        .map((iv) => `[${iv.lo}, ${iv.hi})`)
        .join(', ');
      throw new V2Error(
        'rank_out_of_range',
        `[rank_from, rank_to) must lie inside one of the query's intervals for this shard (${shown || 'none'}${match.intervals.length > 5 ? ', …' : ''}); use the segments of find`,
        ctx,
      );
    }
    const { lo, hi } = match.intervals[0] as { lo: number; hi: number };
    throw new V2Error(
      'rank_out_of_range',
      `[rank_from, rank_to) must lie inside the query's interval [${lo}, ${hi}) for this shard`,
      {
        ...ctx,
        interval_lo: lo,
        interval_hi: hi,
      },
    );
  }
}
