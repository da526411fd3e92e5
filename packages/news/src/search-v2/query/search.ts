import type { OpenRelease, ShardHandle } from '../../release/types.ts';
import { WorkBudget } from '../../work-budget/index.ts';
import { V2Error } from '../errors.ts';
import { FacetCounter, facetFieldsOf, facetMetadataOf } from '../facets.ts';
import { compileFilters, hasNoFilter } from '../filters.ts';
import { shardsInYears } from '../find.ts';
import { matchOptionsOf } from '../matching.ts';
import { lookupIndex } from '../release-lookup.ts';
import { crawlPeriodOf } from '../timeline.ts';
import { termsOf, type QueryNode, type TermNode } from './ast.ts';
import { canonicalText } from './canonical.ts';
import { decodeCursor, isAfter, nextCursor } from './cursor.ts';
import { evaluateShard, queryBudget, type ArticleMatch } from './evaluate.ts';
import { assertIndexVersion } from '../release-lookup.ts';
import { parseQueryJson } from './json-form.ts';
import { QUERY_LIMITS, type QueryWorkLimits } from './limits.ts';
import { parseQuery } from './parse.ts';
import type { SearchArticle, SearchPeriod, SearchRequest, SearchResult } from './types.ts';
import { assertEvaluable } from './validate.ts';

/** The request's query as a tree, from whichever form it came in, with the notes of its normalisation. */
export function queryOf(request: SearchRequest): { tree: QueryNode; notes: readonly string[] } {
  const hasText = request.query !== undefined && request.query !== null;
  const hasTree = request.query_tree !== undefined && request.query_tree !== null;
  if (hasText === hasTree) throw new V2Error('invalid_query', 'send the query either as text in "query" or as JSON in "query_tree", exactly one of them');
  const parsed = hasText ? parseQuery(request.query as string) : { tree: parseQueryJson(request.query_tree), notes: [] };
  const terms = termsOf(parsed.tree);
  if (terms.length > QUERY_LIMITS.terms) {
    throw new V2Error('query_too_complex', `the query has ${terms.length} terms; at most ${QUERY_LIMITS.terms} are answered`, { limit: QUERY_LIMITS.terms });
  }
  assertEvaluable(parsed.tree);
  return parsed;
}

function termLabel(t: TermNode): string {
  return canonicalText(t);
}

/**
 * v2 search: the articles matching a query of the news query language (DESIGN.md, "Query language") in the selected
 * years that pass the metadata filters: how many, per shard and crawl period, what each `word*` stood for, facet counts of the matching articles, and the
 * first `page_size` of them with the first occurrence of a positive term. Exact, or 422 past the work bound.
 *
 * @example (await search(release, { index: 'news', query: '"oil prices" NOT "olive oil"' })).articles // 42
 */
export async function search(
  release: OpenRelease, request: SearchRequest, work: WorkBudget = WorkBudget.unlimited(), limits: QueryWorkLimits = QUERY_LIMITS,
): Promise<SearchResult> {
  const position = request.cursor === undefined || request.cursor === null ? undefined : decodeCursor(request.cursor);
  if (position !== undefined) assertIndexVersion(release, position.index_version);
  const { tree, notes } = queryOf(request);
  const index = lookupIndex(release, request.index);
  const shards = shardsInYears(release, { ...request, query: '' });
  const filtered = !hasNoFilter(request);
  const predicate = compileFilters(request, index);
  const pageSize = request.page_size ?? QUERY_LIMITS.pageDefault;
  const options = matchOptionsOf(request);
  const budget = queryBudget(work, limits);
  const expansions = new Map<TermNode, Map<string, number>>();
  const byShard: SearchResult['by_shard'][number][] = [];
  const periods = new Map<string, SearchPeriod & { articles: number; shard_ids: string[] }>();
  const page: SearchArticle[] = [];
  const facets = new FacetCounter(facetFieldsOf(index));
  let following = 0;
  for (const shard of shards) {
    const store = index.metadata(shard.year);
    if (filtered && store === undefined) {
      throw new V2Error('year_store_missing', `the metadata of ${shard.year} is not available, so the filters cannot be applied`, { year: shard.year });
    }
    const keep = filtered ? (doc: number) => { const m = store?.get(shard.docBase + doc); return m !== undefined && predicate(m); } : () => true;
    const matches = await evaluateShard(shard, tree, options, budget, keep, expansions);
    byShard.push({ shard_id: shard.shardId, year: shard.year, articles: matches.length });
    if (store !== undefined && matches.length > 0) {
      const rows = store.getMany(matches.map((m) => shard.docBase + m.doc));
      matches.forEach((m, i) => { const row = rows[i]; if (row !== undefined) facets.add(facetMetadataOf(row), m.occurrences, 1); });
    }
    const key = crawlPeriodOf(shard.shardId);
    let period = periods.get(key);
    if (period === undefined) periods.set(key, (period = { period: key, year: shard.year, articles: 0, shard_ids: [] }));
    period.articles += matches.length;
    period.shard_ids.push(shard.shardId);
    const after = matches.filter((m) => isAfter(position, shard.shardId, shard.docBase + m.doc));
    following += after.length;
    for (const m of after.slice(0, Math.max(0, pageSize - page.length))) page.push(pageArticle(shard, m, store?.get(shard.docBase + m.doc) ?? null));
  }
  return {
    index_version: release.indexVersion,
    query: canonicalText(tree),
    query_tree: tree,
    notes,
    articles: byShard.reduce((n, s) => n + s.articles, 0),
    exact: true,
    by_shard: byShard,
    periods: [...periods.values()],
    facets: facets.top(Number.POSITIVE_INFINITY, 1),
    expansions: [...expansions].map(([t, words]) => ({
      term: termLabel(t),
      words: [...words].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([word, occurrences]) => ({ word, occurrences })),
    })),
    following,
    page,
    next_cursor: nextCursor(release.indexVersion, following, page),
  };
}

function pageArticle(shard: ShardHandle, m: ArticleMatch, metadata: SearchArticle['metadata']): SearchArticle {
  const article = shard.reader.documentBytes(m.doc);
  const { at, length } = m.hit;
  const context = QUERY_LIMITS.contextBytes;
  const text = (from: number, to: number) => article.toString('utf8', Math.max(0, from), Math.min(article.length, to)).replace(/^\uFFFD+|\uFFFD+$/g, '');
  return {
    shard_id: shard.shardId,
    year: shard.year,
    doc_ix: shard.docBase + m.doc,
    metadata,
    first: { term: termLabel(m.term), offset: at, left: text(at - context, at), match: text(at, at + length), right: text(at + length, at + length + context) },
  };
}
