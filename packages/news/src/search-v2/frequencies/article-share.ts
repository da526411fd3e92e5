import type { ShardHandle } from '../../release/types.ts';
import type { RequestMatcher } from '../matching.ts';

/**
 * Occurrences of one shard whose articles are located one by one for `share_of_articles`: about 20 ms on the SA kind
 * (one table lookup each), more on the compressed kind (sampled locate). Beyond it the share is null, not a guess.
 */
export const SHARE_EXACT_OCCURRENCES = 20_000;

/**
 * The articles of `shard` holding an occurrence that counts (whole-word rule included), or null when the shard has
 * more than SHARE_EXACT_OCCURRENCES candidate occurrences. Per shard, so the answer does not depend on how shards
 * are spread over workers.
 */
export function articlesWithMatch(shard: ShardHandle, matcher: RequestMatcher): number | null {
  const m = matcher.match(shard);
  const candidates = m.intervals.reduce((n, iv) => n + (iv.hi - iv.lo), 0);
  if (candidates > SHARE_EXACT_OCCURRENCES) return null;
  const docs = new Set<number>();
  for (const iv of m.intervals) {
    for (let rank = iv.lo; rank < iv.hi; rank++) if (m.counts(rank)) docs.add(shard.reader.locate(rank).doc);
  }
  return docs.size;
}
