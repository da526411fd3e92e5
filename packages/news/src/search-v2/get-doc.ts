import type { OpenRelease } from '../release/types.ts';
import { WorkBudget } from '../work-budget/index.ts';
import { V2Error } from './errors.ts';
import { V2_LIMITS } from './limits.ts';
import { assertIndexVersion, lookupIndex, lookupShard, lookupYearStore } from './release-lookup.ts';
import { continuationMatch, wholeWordFilter } from './matching.ts';
import type { GetDocRequest, GetDocResult } from './types.ts';

/**
 * v2 get_doc: the article holding the occurrence at `rank` of the query's interval in one shard, as a context
 * window (`max_ctx_len` bytes each side, default 1000) or, with `full_text`, the whole article (≤ 1 MiB, else
 * `article_too_large`), with highlighted spans and full metadata. Everything is read locally.
 */
export function getDoc(
  release: OpenRelease,
  request: GetDocRequest,
  work: WorkBudget = WorkBudget.unlimited(),
): GetDocResult {
  assertIndexVersion(release, request.expected_index_version);
  const index = lookupIndex(release, request.index);
  const shard = lookupShard(index, request.shard_id);
  const match = continuationMatch(shard, request, work);
  const { rank } = request;
  const interval = Number.isSafeInteger(rank) ? match?.intervalOf(rank) : undefined;
  if (interval === undefined) {
    const only = match?.intervals.length === 1 ? match.intervals[0] : undefined;
    const where = only === undefined ? "one of the query's intervals" : `the query's interval [${only.lo}, ${only.hi})`;
    throw new V2Error(
      'rank_out_of_range',
      `rank must lie in ${where} for shard ${shard.shardId}; use a rank from find`,
      {
        shard_id: shard.shardId,
        rank,
        ...(only === undefined ? {} : { interval_lo: only.lo, interval_hi: only.hi }),
      },
    );
  }
  const keep = wholeWordFilter(match);
  if (keep !== undefined && !keep(rank)) {
    throw new V2Error(
      'rank_out_of_range',
      `the occurrence at rank ${rank} is not a whole word; page with documents or occurrences to get the ranks that count`,
      {
        shard_id: shard.shardId,
        rank,
      },
    );
  }
  const query = interval.bytes;

  const { doc } = shard.reader.locate(rank);
  const docIx = shard.docBase + doc;
  const fullText = request.full_text ?? false;
  if (fullText) {
    const docLen = shard.reader.documentLength(doc);
    if (docLen > V2_LIMITS.fullTextBytes) {
      throw new V2Error(
        'article_too_large',
        `the article has ${docLen} bytes, over the ${V2_LIMITS.fullTextBytes}-byte full-text limit; request a window with full_text false`,
        {
          year: shard.year,
          doc_ix: docIx,
          doc_len: docLen,
          limit: V2_LIMITS.fullTextBytes,
        },
      );
    }
  }
  const metadata = lookupYearStore(index, shard.year).get(docIx);
  if (metadata === undefined)
    throw new Error(`metadata store ${shard.year} has no row for doc_ix ${docIx} of shard ${shard.shardId}`);

  const window = shard.reader.window(
    rank,
    query,
    fullText ? Infinity : (request.max_ctx_len ?? V2_LIMITS.maxCtxLenDefault),
  );
  return {
    index_version: release.indexVersion,
    year: shard.year,
    shard_id: shard.shardId,
    rank,
    doc_ix: docIx,
    doc_len: window.docLen,
    disp_len: window.dispLen,
    needle_offset: window.needleOffset,
    text: window.text,
    spans: window.spans,
    metadata,
  };
}
