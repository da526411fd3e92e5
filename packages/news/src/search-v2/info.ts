import type { OpenRelease } from '../release/types.ts';
import { lookupIndex } from './release-lookup.ts';
import { describeFilterSupport } from './filter-support.ts';
import type { FilterSupport, ReleaseInfo } from './types.ts';

const EMPTY: FilterSupport = { available: false, reason: 'no_values' };
/** A release without any index (only possible while building tests) serves no filter. */
const NO_FILTERS = { languages: EMPTY, commonlingua_languages: EMPTY, topics: EMPTY, sources: EMPTY, countries: EMPTY };

/** Name of the index info describes when none is asked for (design doc: the default index name). */
export const DEFAULT_INDEX_NAME = 'news';

/**
 * The worker's part of v2 info, computed from what is loaded (not fixed totals): document count, the crawl periods
 * of the first and last shard, and one entry per shard. Describes `indexName`, else `news`, else the first index.
 */
export function describeRelease(release: OpenRelease, indexName?: string): ReleaseInfo {
  const available = [...release.indexes.keys()];
  const name = indexName ?? (release.indexes.has(DEFAULT_INDEX_NAME) ? DEFAULT_INDEX_NAME : available[0]);
  const index = name === undefined ? undefined : lookupIndex(release, name);
  const shards = index?.shards ?? [];
  return {
    name: name ?? DEFAULT_INDEX_NAME,
    index_version: release.indexVersion,
    document_count: shards.reduce((sum, s) => sum + s.reader.stats.docCount, 0),
    // A period split into parts (`2019-03.p001`) is still the crawl period `2019-03`.
    date_range: { first: shards[0]?.shardId.replace(/\.p\d{3}$/, '') ?? null, last: shards.at(-1)?.shardId.replace(/\.p\d{3}$/, '') ?? null },
    shards: shards.map((s) => ({ shard_id: s.shardId, year: s.year, documents: s.reader.stats.docCount, bytes: s.reader.stats.textBytes })),
    available_indexes: available,
    filters: index === undefined ? NO_FILTERS : describeFilterSupport(index),
  };
}
