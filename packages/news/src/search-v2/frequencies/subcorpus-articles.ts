import type { OpenRelease, ShardHandle } from '../../release/types.ts';
import { WorkBudget } from '../../work-budget/index.ts';
import { compileFilters, hasNoFilter } from '../filters.ts';
import { matchOptionsOf } from '../matching.ts';
import { candidateArticles } from '../query/candidates.ts';
import { queryBudget, tooExpensive, verifyArticles } from '../query/evaluate.ts';
import { planShards } from '../query/plan.ts';
import { prefixExpansions } from '../query/expand.ts';
import { QUERY_LIMITS, type QueryWorkLimits } from '../query/limits.ts';
import { queryOf } from '../query/search.ts';
import { lookupIndex, lookupYearStore } from '../release-lookup.ts';
import type { Subcorpus } from './subcorpus.ts';

/**
 * The articles of each of `shards` (same order) in a filtered or query subcorpus, ascending: those passing the
 * metadata filters and, with a query, matching it as POST /api/v2/search does. Always exact: a query past search's
 * exact bound (driver occurrences or candidate bytes, QUERY_LIMITS) is refused with 422 `query_too_expensive`,
 * since the word counts of a sample of matching articles drawn by occurrence would be weighted by how often the
 * query occurs in them, not a uniform sample of the articles.
 */
export async function subcorpusArticles(
  release: OpenRelease,
  indexName: string,
  sub: Subcorpus,
  shards: readonly ShardHandle[],
  work: WorkBudget = WorkBudget.unlimited(),
  limits: QueryWorkLimits = QUERY_LIMITS,
): Promise<number[][]> {
  const index = lookupIndex(release, indexName);
  const filtered = !hasNoFilter(sub);
  const passes = compileFilters(sub, index);
  const stores = filtered ? shards.map((s) => lookupYearStore(index, s.year)) : [];
  const keep = (i: number, doc: number): boolean => {
    if (!filtered) return true;
    const m = stores[i]?.filterFields((shards[i] as ShardHandle).docBase + doc);
    return m !== undefined && passes(m);
  };
  const hasQuery = (sub.query ?? null) !== null || (sub.query_tree ?? null) !== null;
  if (!hasQuery) {
    const out: number[][] = [];
    for (const [i, shard] of shards.entries()) {
      const docs: number[] = [];
      for (let doc = 0; doc < shard.reader.stats.docCount; doc++) {
        if (work.due()) await work.pause();
        if (keep(i, doc)) docs.push(doc);
      }
      out.push(docs);
    }
    return out;
  }
  const { tree } = queryOf({ index: indexName, query: sub.query ?? null, query_tree: sub.query_tree ?? null });
  const budget = queryBudget(work, limits);
  const options = matchOptionsOf({ case: sub.query_case ?? null, whole_word: sub.whole_word ?? null });
  const plans = planShards(shards, tree, options, budget);
  await prefixExpansions(plans, tree, work);
  const located = plans.reduce((n, p) => n + p.located, 0);
  if (located > limits.locatedOccurrences)
    throw tooExpensive(
      `a query subcorpus is counted from all its articles, and the query's ${located} driver occurrences exceed ${limits.locatedOccurrences}`,
    );
  const candidates = await candidateArticles(plans, keep, work);
  if (candidates.bytes > limits.verifiedBytes)
    throw tooExpensive(
      `a query subcorpus is counted from all its articles, and its candidates hold ${candidates.bytes} bytes, over ${limits.verifiedBytes}`,
    );
  const out = (await verifyArticles(plans, tree, candidates, budget)).map((matches) =>
    matches.map((m) => m.doc).sort((a, b) => a - b),
  );
  return out;
}
