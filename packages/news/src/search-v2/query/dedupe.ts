import type { ReleaseIndex, ShardHandle } from '../../release/types.ts';
import type { StoryMode, StoryTable } from '../../stories/index.ts';
import { storiesOf, type Dedupe } from '../stories/index.ts';
import type { ArticleMatch } from './evaluate.ts';
import type { SearchArticle } from './types.ts';

/**
 * Articles → stories for one search (issue 28 item 1): every match is counted under its story, in release order,
 * and only a story's first match is listed, so a page shows one article per story with the story's `copies`
 * (its matching articles). A story whose first match lies before the cursor is not listed again after it.
 * @example const d = storyDedupe(index, 'near'); const listed = d?.firstOfStories(shard, matches, isAfter) ?? matches
 */
export class StoryDedupe {
  private readonly copies = new Map<number, number>();
  private readonly storyOfListed = new Map<string, number>();

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
      if (seen === undefined && listable(m)) {
        first.push(m);
        this.storyOfListed.set(`${shard.shardId}/${docIx}`, story);
      }
    }
    return first;
  }

  /** Distinct stories among the matches counted. */
  get stories(): number {
    return this.copies.size;
  }

  /** The page with each article's `copies`: its story's matching articles (itself included). */
  withCopies(page: readonly SearchArticle[]): SearchArticle[] {
    return page.map((a) => ({
      ...a,
      copies: this.copies.get(this.storyOfListed.get(`${a.shard_id}/${a.doc_ix}`) ?? -1) ?? 1,
    }));
  }
}

/** The dedupe of a request, or undefined for `none`; 422 `stories_unavailable` when the release has no story files. */
export function storyDedupe(index: ReleaseIndex, dedupe: Dedupe | null | undefined): StoryDedupe | undefined {
  const stories = storiesOf(index, dedupe);
  return stories && new StoryDedupe(stories.table, stories.mode);
}
