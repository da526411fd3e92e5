/**
 * Step 3 of an estimate with `dedupe` past the exact bound (after the draws are resolved, before the sums): each
 * sampled story's matching articles in this process's selected shards and its first one, for `estimateStories`.
 * One worker runs it on all its shards (estimate.ts); the gateway sends the sampled ids to every worker holding a
 * selected shard and merges the counts (`mergeStoryCopies`), so the answer is the one worker's.
 */
import { countInArticle } from '../matching/index.ts';
import type { OpenRelease } from '../release/types.ts';
import { WorkBudget } from '../work-budget/index.ts';
import { compileFilters, hasNoFilter } from './filters.ts';
import { shardsInYears } from './find.ts';
import { RequestMatcher } from './matching.ts';
import { lookupIndex, lookupYearStore } from './release-lookup.ts';
import { countStoryCopies, type StoryCopyCount } from './stories/sampled-stories.ts';
import { storiesOf } from './stories/index.ts';
import type { EstimateRequest } from './types.ts';

/**
 * The matching copies of `ids` here: articles of the selected years that pass the filters and hold an occurrence
 * that counts (any spelling the index finds in the article's shard, the whole-word rule applied), as `estimate`
 * counts matching articles. Empty without dedupe.
 */
export async function estimateStoryCopies(
  release: OpenRelease,
  request: EstimateRequest,
  ids: readonly number[],
  work: WorkBudget = WorkBudget.unlimited(),
): Promise<StoryCopyCount[]> {
  const index = lookupIndex(release, request.index);
  const stories = storiesOf(index, request.dedupe);
  if (stories === undefined) return [];
  const filtered = !hasNoFilter(request);
  const passes = compileFilters(request, index);
  const matcher = new RequestMatcher(request.query, request, work);
  const shards = shardsInYears(release, request);
  const spellings = shards.map((s) =>
    matcher
      .match(s)
      .intervals.filter((iv) => iv.hi > iv.lo)
      .map((iv) => iv.bytes),
  );
  return countStoryCopies(
    stories,
    shards,
    ids,
    (i, doc) => {
      const shard = shards[i];
      const sp = spellings[i];
      if (shard === undefined || sp === undefined || sp.length === 0) return false;
      if (filtered) {
        const m = lookupYearStore(index, shard.year).filterFields(shard.docBase + doc);
        if (m === undefined || !passes(m)) return false;
      }
      return countInArticle(shard.reader.documentView(doc), sp, matcher.options.wholeWord) > 0;
    },
    work,
  );
}
