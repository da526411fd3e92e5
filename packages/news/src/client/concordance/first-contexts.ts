import type { ApiClient } from '../api/api-client.ts';
import type { MatchingOptions } from '../search/matching-options.ts';
import { firstContextKey, type MatchContext } from '../export/export-data.ts';
import type { ExaminedInterval, MergedArticle } from '../search/article-merge.ts';
import { CONCORDANCE_PAGE } from './concordance-pages.ts';

/**
 * The context of each article's first examined occurrence, for the matches export: one contexts call per examined
 * interval (pages of ≤ 1,000 ranks) that holds a first occurrence, keeping only those lines.
 */
export async function loadFirstContexts(
  api: ApiClient,
  p: { index: string; query: string; release: string; matching: MatchingOptions },
  intervals: readonly ExaminedInterval[],
  articles: readonly MergedArticle[],
): Promise<Map<string, MatchContext>> {
  const wanted = new Set(articles.map((a) => firstContextKey(a.firstShardId, a.firstRank)));
  const found = new Map<string, MatchContext>();
  for (const iv of intervals) {
    for (let from = iv.rankFrom; from < iv.rankTo; from += CONCORDANCE_PAGE) {
      const to = Math.min(iv.rankTo, from + CONCORDANCE_PAGE);
      const any = articles.some((a) => a.firstShardId === iv.shardId && a.firstRank >= from && a.firstRank < to);
      if (!any) continue;
      const r = await api.contexts({
        index: p.index,
        query: p.query,
        shardId: iv.shardId,
        rankFrom: from,
        rankTo: to,
        version: p.release,
        matching: p.matching,
      });
      for (const c of r.contexts) {
        const key = firstContextKey(r.shard_id, c.rank);
        if (wanted.has(key)) found.set(key, { left: c.left, match: c.match, right: c.right });
      }
    }
  }
  return found;
}
