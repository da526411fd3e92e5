/**
 * Search with `dedupe` past its exact bound (DESIGN.md, "Stories past the exact bound"): the stories of the sampled
 * matches, their matching copies on this worker's shards, and the Horvitz–Thompson estimate of the stories. A story
 * whose articles may also lie in other workers' shards is kept apart (`story_sample`) for the gateway to complete
 * with its copies on every worker (`v2_search_stories`, search-story-copies.ts).
 */
import type { ShardHandle } from '../../release/types.ts';
import { coveredSpans, leavesCovered, type Stories } from '../stories/index.ts';
import {
  countStoryCopies,
  estimateFromTallies,
  mergeStoryCopies,
  sampledStoryIds,
  tallyStories,
  type StoryCopyCount,
  type StoryDraw,
  type StoryTally,
} from '../stories/sampled-stories.ts';
import type { QueryNode } from './ast.ts';
import { verifyArticle, type QueryBudget } from './evaluate.ts';
import type { ShardPlan } from './plan.ts';
import type { SampledDraw } from './sample.ts';
import type { SearchInterval, SearchRequest } from './types.ts';

/** What the stories of a sampled search come to on one worker. */
export interface SampledStories {
  readonly estimate: { value: number } & SearchInterval;
  /** The sampled stories' matching articles on this worker's selected shards. */
  readonly copies: ReadonlyMap<number, StoryCopyCount>;
  /** Null when every sampled story's articles lie in this worker's shards (always on a worker holding the selection). */
  readonly tally: StoryTally | null;
}

/** The shards' articles that pass the filters and match the query, as search verifies a candidate. */
export const matchesSearch =
  (plans: readonly ShardPlan[], tree: QueryNode, keep: (i: number, doc: number) => boolean, budget: QueryBudget) =>
  (i: number, doc: number): boolean =>
    keep(i, doc) && verifyArticle(plans[i] as ShardPlan, tree, doc, budget) !== null;

/**
 * The story estimate of a search sample: `draws` over `population` driver occurrences of `shards` (this worker's
 * selected shards, `plans` in the same order).
 */
export async function sampledStories(
  stories: Stories,
  request: Pick<SearchRequest, 'year_min' | 'year_max'>,
  plans: readonly ShardPlan[],
  tree: QueryNode,
  keep: (i: number, doc: number) => boolean,
  budget: QueryBudget,
  draws: readonly SampledDraw[],
  population: number,
): Promise<SampledStories> {
  const shards = plans.map((p) => p.shard);
  const storyDraws: StoryDraw[] = draws.map((d) => {
    const shard = shards[d.shard] as ShardHandle;
    const story = stories.table.storyOf(shard.year, shard.docBase + d.doc, stories.mode);
    // An article the story files miss cannot be weighed by its story: it is left out of the story estimate.
    return d.match === null || story === undefined ? null : { story, k: d.k };
  });
  const ids = sampledStoryIds(storyDraws);
  const copies = mergeStoryCopies([
    await countStoryCopies(stories, shards, ids, matchesSearch(plans, tree, keep, budget), budget.work),
  ]);
  const selection = stories.table.spanOfYears(request.year_min ?? null, request.year_max ?? null);
  const covered = coveredSpans(stories, shards);
  const tally = tallyStories(storyDraws, population, copies, (s) => leavesCovered(stories, s, selection, covered));
  return {
    estimate: estimateFromTallies([tally], copies),
    copies,
    tally: tally.shared.length === 0 ? null : tally,
  };
}
