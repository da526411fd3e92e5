/** Putting per-shard answers of several processes back in the release's chronological shard order. */

/** Position of each shard id in `order` (unknown ids last), for sorting merged lists. */
export function positionIn(order: readonly string[]): (id: string) => number {
  const at = new Map(order.map((id, i) => [id, i]));
  return (id) => at.get(id) ?? Number.MAX_SAFE_INTEGER;
}

/**
 * Entries of parallel per-shard lists (several per shard possible), regrouped in release order; entries of one
 * shard keep their order.
 *
 * @example byShardOrder(['a', 'b'], [{ ids: ['b'], items: [2] }, { ids: ['a', 'a'], items: [0, 1] }]) // [0, 1, 2]
 */
export function byShardOrder<T>(
  order: readonly string[],
  lists: readonly { ids: readonly string[]; items: readonly T[] }[],
): T[] {
  const groups = new Map<string, T[]>();
  for (const { ids, items } of lists) {
    ids.forEach((id, i) => {
      const g = groups.get(id);
      if (g === undefined) groups.set(id, [items[i] as T]);
      else g.push(items[i] as T);
    });
  }
  const pos = positionIn(order);
  return [...groups.entries()].sort((a, b) => pos(a[0]) - pos(b[0])).flatMap(([, g]) => g);
}

/** An article's place in a release: its shard and its index there, as answers across processes name it. */
export interface ArticleAt {
  readonly shard_id: string;
  readonly doc_ix: number;
}

/** A Map/Set key of one article of the release. */
export const articleKey = (a: ArticleAt): string => `${a.shard_id}/${a.doc_ix}`;

/** Compares articles in release order, given each shard's position (`positionIn`). */
export const inArticleOrder =
  (pos: (shardId: string) => number) =>
  (a: ArticleAt, b: ArticleAt): number =>
    pos(a.shard_id) - pos(b.shard_id) || a.doc_ix - b.doc_ix;
