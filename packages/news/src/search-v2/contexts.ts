import type { OpenRelease } from '../release/types.ts';
import { WorkBudget } from '../work-budget/index.ts';
import { V2Error } from './errors.ts';
import { V2_LIMITS } from './limits.ts';
import { assertIndexVersion, checkRankRange, lookupIndex, lookupShard, lookupYearStore } from './release-lookup.ts';
import { continuationMatch, wholeWordFilter } from './matching.ts';
import type { ConcordanceLine, ContextsRequest, ContextsResult } from './types.ts';

/** First byte index ≥ i that starts a UTF-8 character (or the end). */
function charStart(buf: Buffer, i: number): number {
  while (i < buf.length && ((buf[i] as number) & 0xc0) === 0x80) i++;
  return i;
}

/**
 * v2 contexts: a concordance (keyword in context) for up to 1,000 ranks of the query's interval in one shard.
 * Each line is `{rank, year, doc_ix, offset, left, match, right, title, hostname}`; `left` and `right` hold at most
 * `context_bytes` bytes (default 60, at most 200) cut inward to whole UTF-8 characters and never cross into a
 * neighbouring article. One call replaces a get_doc per occurrence.
 *
 * @example contexts(release, { index: 'news', shard_id: '2016-05', rank_from: lo, rank_to: lo + 100, query: 'Berlin', expected_index_version: v })
 */
export async function contexts(
  release: OpenRelease,
  request: ContextsRequest,
  work: WorkBudget = WorkBudget.unlimited(),
): Promise<ContextsResult> {
  assertIndexVersion(release, request.expected_index_version);
  const index = lookupIndex(release, request.index);
  const shard = lookupShard(index, request.shard_id);
  if (request.query.length === 0) throw new V2Error('invalid_query', 'contexts needs a non-empty query');
  const match = continuationMatch(shard, request, work);
  checkRankRange(shard, { rankFrom: request.rank_from, rankTo: request.rank_to }, V2_LIMITS.contextsRanks, match);
  const keep = wholeWordFilter(match);
  const contextBytes = request.context_bytes ?? V2_LIMITS.contextBytesDefault;

  const lines: Omit<ConcordanceLine, 'title' | 'hostname'>[] = [];
  for (let rank = request.rank_from; rank < request.rank_to; rank++) {
    if (work.due()) await work.pause();
    if (keep !== undefined && !keep(rank)) continue;
    // The spelling at this rank (case-insensitive ranges hold one spelling each).
    const spelling = match?.intervalOf(rank)?.bytes ?? new Uint8Array(0);
    const w = shard.reader.window(rank, spelling, contextBytes);
    const bytes = Buffer.from(w.text);
    const matchEnd = charStart(bytes, Math.min(bytes.length, w.needleOffset + spelling.length));
    lines.push({
      rank,
      year: shard.year,
      doc_ix: shard.docBase + w.doc,
      offset: w.dispStart + w.needleOffset,
      left: bytes.toString('utf8', 0, w.needleOffset),
      match: bytes.toString('utf8', w.needleOffset, matchEnd),
      right: bytes.toString('utf8', matchEnd),
    });
  }

  // Titles and hostnames of the distinct articles, in one store read.
  const distinct = [...new Set(lines.map((l) => l.doc_ix))];
  const rows = distinct.length === 0 ? [] : lookupYearStore(index, shard.year).getMany(distinct);
  const byDoc = new Map(distinct.map((docIx, i) => [docIx, rows[i]]));
  return {
    index_version: release.indexVersion,
    shard_id: shard.shardId,
    rank_from: request.rank_from,
    rank_to: request.rank_to,
    context_bytes: contextBytes,
    contexts: lines.map((l) => {
      const meta = byDoc.get(l.doc_ix);
      if (meta === undefined)
        throw new Error(`metadata store ${shard.year} has no row for doc_ix ${l.doc_ix} of shard ${shard.shardId}`);
      return { ...l, title: meta.title, hostname: meta.hostname };
    }),
  };
}
