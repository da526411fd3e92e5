import { nextCursor, QUERY_LIMITS, type V2SearchResult } from '../../protocol/index.ts';

/** Position of each shard in the release order. */
function positions(order: readonly string[]): (id: string) => number {
  const at = new Map(order.map((id, i) => [id, i]));
  return (id) => at.get(id) ?? Number.MAX_SAFE_INTEGER;
}

/**
 * One search answer from the answers of workers holding disjoint shards: article counts add up (an article lives in
 * one shard), periods split across workers are summed, prefix expansions add up per word, and the page is the first
 * `page_size` matches in release order (each worker sent its own first ones, so the merged first ones are among them).
 */
export function mergeV2Search(order: readonly string[], parts: readonly V2SearchResult[], indexVersion: string, pageSize?: number | null): V2SearchResult {
  const pos = positions(order);
  const first = parts[0];
  const periods = new Map<string, { period: string; year: string; articles: number; shard_ids: string[] }>();
  const expansions = new Map<string, Map<string, number>>();
  for (const p of parts) {
    for (const t of p.periods) {
      const m = periods.get(t.period);
      if (m === undefined) periods.set(t.period, { ...t, shard_ids: [...t.shard_ids] });
      else { m.articles += t.articles; m.shard_ids.push(...t.shard_ids); }
    }
    for (const e of p.expansions) {
      let words = expansions.get(e.term);
      if (words === undefined) expansions.set(e.term, (words = new Map()));
      for (const w of e.words) words.set(w.word, (words.get(w.word) ?? 0) + w.occurrences);
    }
  }
  for (const m of periods.values()) m.shard_ids.sort((a, b) => pos(a) - pos(b));
  const following = parts.reduce((n, p) => n + p.following, 0);
  const page = parts.flatMap((p) => p.page).sort((a, b) => pos(a.shard_id) - pos(b.shard_id) || a.doc_ix - b.doc_ix)
    .slice(0, pageSize ?? QUERY_LIMITS.pageDefault);
  return {
    index_version: indexVersion,
    query: first?.query ?? '',
    query_tree: first?.query_tree ?? null,
    notes: first?.notes ?? [],
    articles: parts.reduce((n, p) => n + p.articles, 0),
    exact: parts.every((p) => p.exact),
    by_shard: parts.flatMap((p) => p.by_shard).sort((a, b) => pos(a.shard_id) - pos(b.shard_id)),
    periods: [...periods.values()].sort((a, b) => pos(a.shard_ids[0] ?? '') - pos(b.shard_ids[0] ?? '')),
    expansions: [...expansions].map(([term, words]) => ({
      term,
      words: [...words].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([word, occurrences]) => ({ word, occurrences })),
    })),
    following,
    page,
    next_cursor: nextCursor(indexVersion, following, page),
  };
}
