import type { ReleaseIndex, ShardHandle } from '../../release/types.ts';
import type { StoryMode, StoryTable } from '../../stories/index.ts';
import { V2Error } from '../errors.ts';
import { coveredSpans, leavesCovered, storiesOf, type Dedupe } from '../stories/index.ts';
import type { ArticleMatch } from './evaluate.ts';
import { articleKey, type ArticleAt } from '../shard-order.ts';
import type { SearchArticle, SpanningStory } from './types.ts';

/**
 * Stories one worker's search answer may list for a cluster to merge (`spanning_stories`): past it 422
 * `query_too_expensive`. ~60 bytes of JSON each, so at most ~6 MB between a worker and its gateway.
 */
export const SPANNING_STORIES_MAX = 100_000;

/**
 * Articles → stories for one search (issue 28 item 1): every match is counted under its story, in release order,
 * and only a story's first match is listed, so a page shows one article per story with the story's `copies`
 * (its matching articles). A story whose first match lies before the cursor is not listed again after it.
 * @example const d = storyDedupe(index, 'near'); const listed = d?.firstOfStories(shard, matches, isAfter) ?? matches
 */
export class StoryDedupe {
  private readonly copies = new Map<number, number>();
  private readonly storyOfListed = new Map<string, number>();
  /** Each story's first match here (shards are counted in release order). */
  private readonly firstAt = new Map<number, ArticleAt>();

  constructor(
    private readonly table: StoryTable,
    private readonly mode: StoryMode,
  ) {}

  /** Counts `matches` (one shard's, in order) under their stories; returns those that start a story and `listable`. */
  firstOfStories(
    shard: ShardHandle,
    matches: readonly ArticleMatch[],
    listable: (m: ArticleMatch) => boolean,
  ): ArticleMatch[] {
    const first: ArticleMatch[] = [];
    for (const m of matches) {
      const docIx = shard.docBase + m.doc;
      // An article missing from the table would mean a release whose story files do not cover it: its own story.
      const story = this.table.storyOf(shard.year, docIx, this.mode) ?? -1 - this.copies.size;
      const seen = this.copies.get(story);
      this.copies.set(story, (seen ?? 0) + 1);
      if (seen === undefined) this.firstAt.set(story, { shard_id: shard.shardId, doc_ix: docIx });
      if (seen === undefined && listable(m)) {
        first.push(m);
        this.storyOfListed.set(articleKey({ shard_id: shard.shardId, doc_ix: docIx }), story);
      }
    }
    return first;
  }

  /** Distinct stories among the matches counted. */
  get stories(): number {
    return this.copies.size;
  }

  /**
   * The stories counted here whose articles (first to last, clipped to the selected years) leave the runs of `shards`, the
   * selection's shards this worker holds: another worker may count them too. Each with its first match here and its
   * copies here, for the gateway to keep one first and sum the copies (`calls/dedupe-combine.ts`). Empty when the
   * shards cover the whole selection.
   */
  spanning(
    years: { year_min?: number | null; year_max?: number | null },
    shards: readonly ShardHandle[],
  ): SpanningStory[] {
    const stories = { table: this.table, mode: this.mode };
    const selection = this.table.spanOfYears(years.year_min ?? null, years.year_max ?? null);
    const covered = coveredSpans(stories, shards);
    const out: SpanningStory[] = [];
    for (const [story, at] of this.firstAt) {
      if (story < 0 || !leavesCovered(stories, story, selection, covered)) continue;
      if (out.length === SPANNING_STORIES_MAX) {
        throw new V2Error(
          'query_too_expensive',
          `dedupe across workers merges the stories that several workers hold, and this worker holds more than ${SPANNING_STORIES_MAX} of them for the query; narrow the years or serve them from one worker`,
          { limit: SPANNING_STORIES_MAX },
        );
      }
      out.push({ story, ...at, copies: this.copies.get(story) ?? 1 });
    }
    return out;
  }

  /**
   * The matches to list from `after` (listable first matches, release order): the first `size`, or, when some start
   * stories in `spanning`, as many as it takes to hold `size` that do not. The gateway drops a spanning story's entry
   * when another worker holds an earlier match of it, so this keeps its merged page whole.
   */
  pageOf<T>(after: readonly T[], size: number, at: (t: T) => ArticleAt, spanning: readonly SpanningStory[]): T[] {
    if (spanning.length === 0) return after.slice(0, size);
    const shared = new Set(spanning.map(articleKey));
    const page: T[] = [];
    let own = 0;
    for (const t of after) {
      if (own === size) break;
      page.push(t);
      if (!shared.has(articleKey(at(t)))) own++;
    }
    return page;
  }

  /**
   * The page with each article's `copies` (its story's matching articles, itself included) and `story` (the
   * release-wide id `POST /api/v2/search/copies` lists them by; left out for an article the story files miss).
   */
  withCopies(page: readonly SearchArticle[]): SearchArticle[] {
    return page.map((a) => {
      const story = this.storyOfListed.get(articleKey(a)) ?? -1;
      return { ...a, ...(story < 0 ? {} : { story }), copies: this.copies.get(story) ?? 1 };
    });
  }
}

/** The dedupe of a request, or undefined for `none`; 422 `stories_unavailable` when the release has no story files. */
export function storyDedupe(index: ReleaseIndex, dedupe: Dedupe | null | undefined): StoryDedupe | undefined {
  const stories = storiesOf(index, dedupe);
  return stories && new StoryDedupe(stories.table, stories.mode);
}
