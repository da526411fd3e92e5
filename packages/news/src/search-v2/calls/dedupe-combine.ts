import { decodeCursor, isAfter } from '../query/cursor.ts';
import { articleKey as key, inArticleOrder } from '../shard-order.ts';
import type { SearchArticle, SearchRequest, SearchResult, SpanningStory } from '../query/types.ts';
import { sumIntervals } from '../query/sample.ts';
import { estimateFromTallies } from '../stories/sampled-stories.ts';

/** What dedupe changes in a merged search answer: the story count, the stories after the cursor and the page. */
export interface MergedStories {
  readonly stories: number;
  readonly following: number;
  /** In release order, before the cut to page_size. */
  readonly page: readonly SearchArticle[];
}

/**
 * Stories of search answers for disjoint shard sets (issue 28 item 1). A story whose articles all lie in one worker's
 * shards is counted and listed by that worker alone; every other story a worker counted comes with its first match
 * and copies there (`spanning_stories`, `StoryDedupe.spanning`). Per such story the earliest first match (release
 * order, `pos` of its shard) is the story's first: the other workers' entries are taken off the story count, the
 * count after the cursor and the page, and the listed first gets the summed copies. Each worker listed its first
 * matches until `page_size` of its own stories (`StoryDedupe.pageOf`), so the merged first `page_size` are among
 * the entries kept. Undefined without dedupe.
 */
export function mergeSearchStories(
  parts: readonly Pick<SearchResult, 'stories' | 'following' | 'page' | 'spanning_stories'>[],
  body: Pick<SearchRequest, 'cursor'>,
  pos: (shardId: string) => number,
): MergedStories | undefined {
  if (parts.every((p) => p.stories === undefined)) return undefined;
  const cursor = body.cursor === undefined || body.cursor === null ? undefined : decodeCursor(body.cursor);
  const after = (s: SpanningStory) => isAfter(cursor, s.shard_id, s.doc_ix);
  const byStory = new Map<number, SpanningStory[]>();
  for (const p of parts)
    for (const s of p.spanning_stories ?? []) {
      const held = byStory.get(s.story);
      if (held === undefined) byStory.set(s.story, [s]);
      else held.push(s);
    }
  const order = inArticleOrder(pos);
  let stories = parts.reduce((n, p) => n + (p.stories ?? 0), 0);
  let following = parts.reduce((n, p) => n + p.following, 0);
  // Entries (shard/doc_ix) that are not their story's first, and the copies of those that are.
  const dropped = new Set<string>();
  const copies = new Map<string, number>();
  for (const held of byStory.values()) {
    if (held.length === 1) continue;
    const first = held.reduce((a, b) => (order(b, a) < 0 ? b : a));
    stories -= held.length - 1;
    following -= held.filter(after).length - (after(first) ? 1 : 0);
    for (const s of held) if (s !== first) dropped.add(key(s));
    copies.set(
      key(first),
      held.reduce((n, s) => n + s.copies, 0),
    );
  }
  const page = parts
    .flatMap((p) => p.page)
    .filter((a) => !dropped.has(key(a)))
    .map((a) => (copies.has(key(a)) ? { ...a, copies: copies.get(key(a)) } : a))
    .sort(order);
  return { stories, following, page };
}

type StoryParts = readonly Pick<
  SearchResult,
  'stories' | 'stories_interval' | 'exact' | 'spanning_stories' | 'story_sample'
>[];

const sampledWithStories = (parts: StoryParts) => parts.some((p) => p.stories !== undefined && !p.exact);

/**
 * The stories whose matching articles on every worker a merge of sampled dedupe answers needs (the gateway asks
 * every worker of the selection, `v2_search_stories`): those of the samples' `story_sample` and, beside a sampled
 * part, the stories exact parts share with other workers. Empty when no part was sampled with dedupe.
 */
export function storiesToComplete(parts: StoryParts): number[] {
  if (!sampledWithStories(parts)) return [];
  const ids = new Set<number>();
  for (const p of parts) {
    for (const s of p.story_sample?.shared ?? []) ids.add(s.story);
    if (p.exact) for (const s of p.spanning_stories ?? []) ids.add(s.story);
  }
  return [...ids].sort((a, b) => a - b);
}

/**
 * Stories of answers for disjoint shard sets when some were sampled (undefined otherwise: `mergeSearchStories`
 * counts exactly). Each story adds up to one over the parts (Horvitz–Thompson): a sampled part gives its estimate,
 * completed with `copies` (m_s over every worker) for its shared stories; an exact part gives its stories, each
 * shared one counting as its copies there over m_s. Estimates of independent samples add with their half-widths in
 * quadrature; exact parts add no width.
 */
export function estimatedStories(
  parts: StoryParts,
  copies: ReadonlyMap<number, { readonly copies: number }>,
): { value: number; low: number; high: number } | undefined {
  if (!sampledWithStories(parts)) return undefined;
  const terms = parts.flatMap((p) => {
    if (p.stories === undefined) return [];
    if (p.story_sample !== undefined) return [estimateFromTallies([p.story_sample], copies)];
    if (!p.exact) return [{ value: p.stories, ...(p.stories_interval ?? { low: p.stories, high: p.stories }) }];
    let value = p.stories;
    for (const s of p.spanning_stories ?? [])
      value += s.copies / Math.max(s.copies, copies.get(s.story)?.copies ?? 1) - 1;
    return [{ value, low: value, high: value }];
  });
  const value = Math.round(terms.reduce((n, t) => n + t.value, 0));
  const { low, high } = sumIntervals(terms);
  return { value, low: Math.min(low, value), high: Math.max(high, value) };
}
