import type { OpenRelease } from '../release/types.ts';
import { WorkBudget } from '../work-budget/index.ts';
import { compileFilters } from './filters.ts';
import { V2_LIMITS } from './limits.ts';
import { assertIndexVersion, checkRankRange, lookupIndex, lookupShard, lookupYearStore } from './release-lookup.ts';
import { locateRange } from './locate-range.ts';
import { continuationMatch, wholeWordFilterAt } from './matching.ts';
import { storiesOf, type Stories } from './stories/index.ts';
import type { DocumentRecord, DocumentsRequest, DocumentsResult } from './types.ts';

/**
 * v2 documents: resolves [rank_from, rank_to) (≤ 1,000 ranks) of one shard to its distinct documents, keeps those
 * whose metadata passes the filters, and reports the four page-local counts. Documents come in order of first rank.
 * A document can also occur on neighbouring pages: query-wide totals merge pages by (year, doc_ix).
 */
export async function documents(
  release: OpenRelease,
  request: DocumentsRequest,
  work: WorkBudget = WorkBudget.unlimited(),
): Promise<DocumentsResult> {
  assertIndexVersion(release, request.expected_index_version);
  const index = lookupIndex(release, request.index);
  const shard = lookupShard(index, request.shard_id);
  const match = continuationMatch(shard, request, work);
  checkRankRange(shard, { rankFrom: request.rank_from, rankTo: request.rank_to }, V2_LIMITS.documentsRanks, match);
  const keep = wholeWordFilterAt(match);
  const passes = compileFilters(request, index);
  const stories = storiesOf(index, request.dedupe);

  // Insertion order of a Map is first-seen order, and ranks are visited in increasing order: first-rank order.
  const byDoc = new Map<number, { firstRank: number; occurrences: number }>();
  const located = await locateRange(shard.reader, request.rank_from, request.rank_to, keep, work);
  const pageOccurrences = located.length;
  for (const { rank, at } of located) {
    const docIx = shard.docBase + at.doc;
    const seen = byDoc.get(docIx);
    if (seen === undefined) byDoc.set(docIx, { firstRank: rank, occurrences: 1 });
    else seen.occurrences++;
  }

  const pageDocs = [...byDoc];
  const metadata =
    pageDocs.length === 0 ? [] : lookupYearStore(index, shard.year).getMany(pageDocs.map(([docIx]) => docIx));
  const matching: DocumentRecord[] = [];
  let matchingOccurrences = 0;
  pageDocs.forEach(([docIx, { firstRank, occurrences }], i) => {
    const meta = metadata[i];
    if (meta === undefined) {
      // The release verified at load that every shard document has a metadata row; this is a broken release.
      throw new Error(`metadata store ${shard.year} has no row for doc_ix ${docIx} of shard ${shard.shardId}`);
    }
    if (!passes(meta)) return;
    matching.push({ year: shard.year, doc_ix: docIx, occurrences, first_rank: firstRank, metadata: meta });
    matchingOccurrences += occurrences;
  });

  const listed = stories === undefined ? undefined : firstOfStories(stories, matching);
  return {
    index_version: release.indexVersion,
    shard_id: shard.shardId,
    rank_from: request.rank_from,
    rank_to: request.rank_to,
    page_occurrences: pageOccurrences,
    page_distinct_documents: byDoc.size,
    page_matching_documents: matching.length,
    page_matching_occurrences: matchingOccurrences,
    ...(listed === undefined ? {} : { page_matching_stories: listed.length }),
    documents: listed ?? matching,
  };
}

/** One record per story (its first on the page), with the story's id, size and matching documents on the page. */
function firstOfStories(stories: Stories, matching: readonly DocumentRecord[]): DocumentRecord[] {
  const byStory = new Map<number, DocumentRecord & { page_copies: number }>();
  for (const d of matching) {
    // A document missing from the story files would be its own story.
    const story = stories.table.storyOf(d.year, d.doc_ix, stories.mode) ?? -1 - byStory.size;
    const seen = byStory.get(story);
    if (seen !== undefined) seen.page_copies++;
    else
      byStory.set(story, { ...d, story, story_size: stories.table.sizeOf(story, stories.mode) || 1, page_copies: 1 });
  }
  return [...byStory.values()];
}
