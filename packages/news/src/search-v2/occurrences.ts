import type { OpenRelease, ShardHandle } from '../release/types.ts';
import { V2_LIMITS } from './limits.ts';
import { assertIndexVersion, checkRankRange, encodeQuery, lookupIndex, lookupShard } from './release-lookup.ts';
import type { Occurrence, OccurrencesResult, RankRangeRequest } from './types.ts';

/** The continuation checks, in order: release, index and shard, rank range (and the query's interval). */
function checkedShard(release: OpenRelease, request: RankRangeRequest): ShardHandle {
  assertIndexVersion(release, request.expected_index_version);
  const shard = lookupShard(lookupIndex(release, request.index), request.shard_id);
  const query = request.query === undefined || request.query === null ? undefined : encodeQuery(request.query);
  checkRankRange(shard, { rankFrom: request.rank_from, rankTo: request.rank_to }, V2_LIMITS.occurrencesRanks, query);
  return shard;
}

/**
 * v2 occurrences: resolves every rank of [rank_from, rank_to) (≤ 50,000) in one shard to (year, doc_ix, offset).
 * The release version is checked before anything else.
 *
 * @example occurrences(release, { index: 'news', shard_id: '2016-05', rank_from: 0, rank_to: 10, expected_index_version: v })
 */
export function occurrences(release: OpenRelease, request: RankRangeRequest): OccurrencesResult {
  const shard = checkedShard(release, request);
  const { reader, year, docBase } = shard;
  const list: Occurrence[] = new Array(request.rank_to - request.rank_from);
  for (let rank = request.rank_from, i = 0; rank < request.rank_to; rank++, i++) {
    const { doc, offset } = reader.locate(rank);
    list[i] = { rank, year, doc_ix: docBase + doc, offset };
  }
  return {
    index_version: release.indexVersion,
    shard_id: shard.shardId,
    rank_from: request.rank_from,
    rank_to: request.rank_to,
    page_occurrences: list.length,
    occurrences: list,
  };
}

