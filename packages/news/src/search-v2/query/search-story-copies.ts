import type { OpenRelease } from '../../release/types.ts';
import { WorkBudget } from '../../work-budget/index.ts';
import { matchOptionsOf } from '../matching.ts';
import { storiesOf } from '../stories/index.ts';
import { countStoryCopies, type StoryCopyCount } from '../stories/sampled-stories.ts';
import { matchesSearch } from './dedupe-sample.ts';
import { queryBudget } from './evaluate.ts';
import { filteredShards } from './filtered-shards.ts';
import { QUERY_LIMITS } from './limits.ts';
import { planShards } from './plan.ts';
import { queryOf } from './search.ts';
import type { SearchRequest } from './types.ts';

/**
 * `v2_search_stories` (internal): the matching articles of `ids` on this worker's selected shards, under the
 * search's query, filters and matching options (as `sampledStories` counts them).
 */
export async function searchStoryCopies(
  release: OpenRelease,
  request: SearchRequest,
  ids: readonly number[],
  work: WorkBudget = WorkBudget.unlimited(),
): Promise<StoryCopyCount[]> {
  const { tree } = queryOf(request);
  const { index, shards, keep } = filteredShards(release, request);
  const stories = storiesOf(index, request.dedupe);
  if (stories === undefined) return [];
  const budget = queryBudget(work, QUERY_LIMITS);
  const plans = planShards(shards, tree, matchOptionsOf(request), budget);
  return countStoryCopies(stories, shards, ids, matchesSearch(plans, tree, keep, budget), work);
}
