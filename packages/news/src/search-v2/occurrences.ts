import type { OpenRelease, ShardHandle } from '../release/types.ts';
import type { Location } from '../shard/index.ts';
import { WorkBudget } from '../work-budget/index.ts';
import { V2_LIMITS } from './limits.ts';
import { forEachLocated, locateRange } from './locate-range.ts';
import { assertIndexVersion, checkRankRange, lookupIndex, lookupShard } from './release-lookup.ts';
import { continuationMatch, wholeWordFilterAt } from './matching.ts';
import type { Occurrence, OccurrencesResult, RankRangeRequest } from './types.ts';

/** The continuation checks, in order: release, index and shard, rank range (and the query's interval). */
function checkedShard(
  release: OpenRelease,
  request: RankRangeRequest,
  work: WorkBudget,
): { shard: ShardHandle; keep: ((rank: number, at: Location) => boolean) | undefined } {
  assertIndexVersion(release, request.expected_index_version);
  const shard = lookupShard(lookupIndex(release, request.index), request.shard_id);
  const match = continuationMatch(shard, request, work);
  checkRankRange(shard, { rankFrom: request.rank_from, rankTo: request.rank_to }, V2_LIMITS.occurrencesRanks, match);
  return { shard, keep: wholeWordFilterAt(match) };
}

/**
 * v2 occurrences: resolves every rank of [rank_from, rank_to) (≤ 50,000) in one shard to (year, doc_ix, offset).
 * The release version is checked before anything else.
 *
 * @example await occurrences(release, { index: 'news', shard_id: '2016-05', rank_from: 0, rank_to: 10, expected_index_version: v })
 */
export async function occurrences(
  release: OpenRelease,
  request: RankRangeRequest,
  work: WorkBudget = WorkBudget.unlimited(),
): Promise<OccurrencesResult> {
  const { shard, keep } = checkedShard(release, request, work);
  const { reader, year, docBase } = shard;
  const located = await locateRange(reader, request.rank_from, request.rank_to, keep, work);
  const list: Occurrence[] = located.map(({ rank, at }) => ({
    rank,
    year,
    doc_ix: docBase + at.doc,
    offset: at.offset,
  }));
  return {
    index_version: release.indexVersion,
    shard_id: shard.shardId,
    rank_from: request.rank_from,
    rank_to: request.rank_to,
    page_occurrences: list.length,
    occurrences: list,
  };
}

const ASCII_ONLY = /^[\x20-\x7e]*$/;

/** Writes a non-negative integer's decimal digits at `at`; returns the position after them. */
function writeDigits(buf: Buffer, at: number, n: number): number {
  if (n < 10) {
    buf[at] = 48 + n;
    return at + 1;
  }
  let end = at;
  for (let m = n; m >= 1; m = Math.floor(m / 10)) end++;
  for (let i = end - 1, m = n; i >= at; i--, m = Math.floor(m / 10)) buf[i] = 48 + (m % 10);
  return end;
}

function writeAscii(buf: Buffer, at: number, s: string): number {
  for (let i = 0; i < s.length; i++) buf[at + i] = s.charCodeAt(i);
  return at + s.length;
}

/**
 * v2 occurrences encoded as the JSON text of `occurrences(release, request)`, byte for byte. Allocating and
 * JSON.stringify-ing 50,000 small objects was about 3/4 of the endpoint's time; here the per-rank values are
 * non-negative integers written as ASCII digits into one buffer, and the shard's year is encoded once.
 */
export async function occurrencesJson(
  release: OpenRelease,
  request: RankRangeRequest,
  work: WorkBudget = WorkBudget.unlimited(),
): Promise<string> {
  const { shard, keep } = checkedShard(release, request, work);
  // With whole_word the page lists only the ranks that count; the general path does that.
  if (keep !== undefined) return JSON.stringify(await occurrences(release, request, work));
  const { reader, docBase } = shard;
  const from = request.rank_from;
  const to = request.rank_to;
  const year = JSON.stringify(shard.year);
  const head =
    `{"index_version":${JSON.stringify(release.indexVersion)},"shard_id":${JSON.stringify(shard.shardId)}` +
    `,"rank_from":${from},"rank_to":${to},"page_occurrences":${to - from},"occurrences":[`;
  // The fast loop writes bytes as latin1 characters, so it needs a printable-ASCII year (crawl years are digits).
  if (!ASCII_ONLY.test(year)) return JSON.stringify(await occurrences(release, request, work));
  const rankKey = '{"rank":';
  const yearPart = `,"year":${year},"doc_ix":`;
  const offsetKey = ',"offset":';
  // Per entry: the fixed text, three integers of at most 16 digits (< 2^53), a brace and a comma.
  const buf = Buffer.allocUnsafe((to - from) * (rankKey.length + yearPart.length + offsetKey.length + 3 * 16 + 2) + 2);
  let at = 0;
  await forEachLocated(reader, from, to, work, (rank, { doc, offset }) => {
    if (rank !== from) buf[at++] = 44; // ,
    at = writeAscii(buf, at, rankKey);
    at = writeDigits(buf, at, rank);
    at = writeAscii(buf, at, yearPart);
    at = writeDigits(buf, at, docBase + doc);
    at = writeAscii(buf, at, offsetKey);
    at = writeDigits(buf, at, offset);
    buf[at++] = 125; // }
  });
  buf[at++] = 93; // ]
  buf[at++] = 125; // }
  return head + buf.toString('latin1', 0, at);
}
