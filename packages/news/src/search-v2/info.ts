import type { OpenRelease, ShardHandle } from '../release/types.ts';
import { lookupIndex } from './release-lookup.ts';
import { describeFilterSupport } from './filter-support.ts';
import { FILTER_NAMES } from './filter-names.ts';
import { positionIn } from './shard-order.ts';
import { crawlPeriodOf } from './timeline.ts';
import type { CombineContext } from './calls/define.ts';
import type { FilterSupport, FilterSupportMap, ReleaseInfo } from './types.ts';

const EMPTY: FilterSupport = { available: false, reason: 'no_values' };
/** A release without any index (only possible while building tests) serves no filter. */
const NO_FILTERS = { languages: EMPTY, commonlingua_languages: EMPTY, topics: EMPTY, sources: EMPTY, countries: EMPTY };

/** Name of the index info describes when none is asked for (design doc: the default index name). */
export const DEFAULT_INDEX_NAME = 'news';

/**
 * The worker's part of v2 info, computed from what is loaded (not fixed totals): document count, the crawl periods
 * of the first and last shard, and one entry per shard. Describes `indexName`, else `news`, else the first index.
 * Each crawl year is described alone (its metadata store says which filters it can serve) and the years combined
 * as the gateway combines workers.
 */
export function describeRelease(release: OpenRelease, indexName?: string): ReleaseInfo {
  const available = [...release.indexes.keys()];
  const name = indexName ?? (release.indexes.has(DEFAULT_INDEX_NAME) ? DEFAULT_INDEX_NAME : available[0]);
  const index = name === undefined ? undefined : lookupIndex(release, name);
  const shards = index?.shards ?? [];
  const part = (of: readonly ShardHandle[], years: readonly string[]): ReleaseInfo => ({
    name: name ?? DEFAULT_INDEX_NAME,
    index_version: release.indexVersion,
    document_count: of.reduce((sum, s) => sum + s.reader.stats.docCount, 0),
    date_range: { first: null, last: null },
    shards: of.map((s) => ({
      shard_id: s.shardId,
      year: s.year,
      documents: s.reader.stats.docCount,
      bytes: s.reader.stats.textBytes,
    })),
    available_indexes: available,
    filters: index === undefined ? NO_FILTERS : describeFilterSupport(index, years),
  });
  const byYear = new Map<string, ShardHandle[]>();
  for (const s of shards) {
    const list = byYear.get(s.year);
    if (list === undefined) byYear.set(s.year, [s]);
    else list.push(s);
  }
  const parts = byYear.size === 0 ? [part([], [])] : [...byYear].map(([year, of]) => part(of, [year]));
  return combineInfo(parts, { order: shards.map((s) => s.shardId), indexVersion: release.indexVersion });
}

/**
 * info's answers for disjoint shard sets (at least one) as one answer: shards in release order, documents added,
 * the date range from the first and last shard.
 */
export function combineInfo(parts: readonly ReleaseInfo[], ctx: CombineContext): ReleaseInfo {
  const pos = positionIn(ctx.order);
  const shards = parts.flatMap((p) => p.shards).sort((a, b) => pos(a.shard_id) - pos(b.shard_id));
  const first = parts[0];
  const period = (shard: { shard_id: string } | undefined) =>
    shard === undefined ? null : crawlPeriodOf(shard.shard_id);
  return {
    name: first?.name ?? '',
    index_version: ctx.indexVersion,
    document_count: shards.reduce((n, s) => n + s.documents, 0),
    date_range: { first: period(shards[0]), last: period(shards.at(-1)) },
    shards,
    available_indexes: first?.available_indexes ?? [],
    filters: combineFilterSupport(parts.map((p) => p.filters)),
  };
}

/**
 * A filter is served when any part's years have values for it (each part reports only the metadata stores of
 * its own years); otherwise the first part's reason stands (the parts share the release's country table).
 */
function combineFilterSupport(parts: readonly FilterSupportMap[]): FilterSupportMap {
  const pick = (f: keyof FilterSupportMap) => parts.find((p) => p[f].available)?.[f] ?? parts[0]?.[f] ?? EMPTY;
  return Object.fromEntries(FILTER_NAMES.map((f) => [f, pick(f)])) as Record<keyof FilterSupportMap, FilterSupport>;
}
