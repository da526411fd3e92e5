import type { OpenRelease, ShardHandle } from '../../release/types.ts';
import { WorkBudget } from '../../work-budget/index.ts';
import { V2Error } from '../errors.ts';
import { FacetCounter, facetFieldsOf } from '../facets.ts';
import { matchOptionsOf } from '../matching.ts';
import { crawlPeriodOf } from '../timeline.ts';
import { termsOf, type QueryNode, type TermNode } from './ast.ts';
import { canonicalText } from './canonical.ts';
import { decodeCursor, isAfter, nextCursor } from './cursor.ts';
import { candidateArticles } from './candidates.ts';
import type { EvaluationPath } from './located.ts';
import { queryBudget, verifyArticles, type ArticleMatch, type QueryBudget } from './evaluate.ts';
import { planShards, type ShardPlan } from './plan.ts';
import { fieldReader } from './fields.ts';
import { filteredShards } from './filtered-shards.ts';
import { storyDedupe } from './dedupe.ts';
import { sampledStories, type SampledStories } from './dedupe-sample.ts';
import { storiesOf } from '../stories/index.ts';
import { prefixExpansions } from './expand.ts';
import { estimateArticles, sampleArticles, sampleSeed, type SampledDraw } from './sample.ts';
import { assertIndexVersion } from '../release-lookup.ts';
import { parseQueryJson } from './json-form.ts';
import { QUERY_LIMITS, type QueryWorkLimits } from './limits.ts';
import { parseQuery } from './parse.ts';
import type {
  SearchArticle,
  SearchInterval,
  SearchPeriod,
  SearchRequest,
  SearchResult,
  SearchSample,
} from './types.ts';
import { assertEvaluable } from './validate.ts';

/** The request's query as a tree, from whichever form it came in, with the notes of its normalisation. */
export function queryOf(request: SearchRequest): { tree: QueryNode; notes: readonly string[] } {
  const hasText = request.query !== undefined && request.query !== null;
  const hasTree = request.query_tree !== undefined && request.query_tree !== null;
  if (hasText === hasTree)
    throw new V2Error(
      'invalid_query',
      'send the query either as text in "query" or as JSON in "query_tree", exactly one of them',
    );
  const parsed = hasText
    ? parseQuery(request.query as string)
    : { tree: parseQueryJson(request.query_tree), notes: [] };
  const terms = termsOf(parsed.tree);
  if (terms.length > QUERY_LIMITS.terms) {
    throw new V2Error(
      'query_too_complex',
      `the query has ${terms.length} terms; at most ${QUERY_LIMITS.terms} are answered`,
      { limit: QUERY_LIMITS.terms },
    );
  }
  assertEvaluable(parsed.tree);
  return parsed;
}

function termLabel(t: TermNode): string {
  return canonicalText(t);
}

/** What either way of answering gives for the selected shards (index into `plans`). */
export interface Tallies {
  /** Per shard: matching articles (estimated when sampled). */
  readonly byShard: number[];
  readonly total: { value: number } & SearchInterval;
  readonly periods: Map<string, { value: number } & SearchInterval>;
  /** Matching articles to list, in release order: all (exact) or the distinct ones the sample saw. */
  readonly listed: { shard: number; match: ArticleMatch }[];
  readonly sample: SearchSample | null;
}

/**
 * v2 search: the articles matching a query of the news query language (DESIGN.md, "Query language") in the selected
 * years that pass the metadata filters: how many, per shard and crawl period, what each `word*` stands for (from the index), facet
 * counts of the matching articles, and the first `page_size` of them with the first occurrence of a positive term.
 * Exact within the work bound; past it estimated from a seeded sample with 95% intervals (`exact: false`), stories
 * too with `dedupe` (Horvitz–Thompson with each story's matching copies, dedupe-sample.ts).
 * `path` chooses how candidates are verified (located occurrences or byte search, `located.ts`): the same answer either way.
 *
 * @example (await search(release, { index: 'news', query: '"oil prices" NOT "olive oil"' })).articles // 42
 */
export async function search(
  release: OpenRelease,
  request: SearchRequest,
  work: WorkBudget = WorkBudget.unlimited(),
  limits: QueryWorkLimits = QUERY_LIMITS,
  path: EvaluationPath = 'auto',
): Promise<SearchResult> {
  const position = request.cursor === undefined || request.cursor === null ? undefined : decodeCursor(request.cursor);
  if (position !== undefined) assertIndexVersion(release, position.index_version);
  const { tree, notes } = queryOf(request);
  const { index, shards, stores, keep } = filteredShards(release, request);
  const budget = queryBudget(work, limits);
  const options = matchOptionsOf(request);
  const dedupe = storyDedupe(index, request.dedupe);
  const plans = planShards(shards, tree, options, budget);
  // The prefixes' bound is checked before any article is located or read.
  const expansions = await prefixExpansions(plans, tree, work);
  const facets = new FacetCounter(facetFieldsOf(index), { shownOnly: true });
  // Facets count only the filterable fields (FacetMetadata = FilterFields): a format-3 store answers them from its
  // profile ids without decompressing the rows, which was most of a frequent query's CPU (BENCHMARKS.md).
  const facetFieldsAt = (i: number, doc: number) => stores[i]?.filterFields((shards[i] as ShardHandle).docBase + doc);
  const exact = await exactTallies(plans, tree, keep, budget, path);
  let tallies: Tallies;
  let sampled: SampledStories | undefined;
  if (exact !== null) {
    tallies = exact;
    for (const { shard, match } of exact.listed) {
      const fields = facetFieldsAt(shard, match.doc);
      if (fields !== undefined) facets.add(fields, match.occurrences, 1);
    }
  } else {
    const size = request.sample_size ?? QUERY_LIMITS.sampleDefault;
    const seed = request.seed ?? 1;
    const draws = await sampleArticles(
      plans,
      tree,
      size,
      sampleSeed(
        seed,
        shards.map((s) => s.shardId),
      ),
      budget,
      keep,
    );
    tallies = sampledTallies(plans, draws, { size, seed, population: plans.reduce((n, p) => n + p.located, 0) });
    const stories = storiesOf(index, request.dedupe);
    if (stories !== undefined)
      sampled = await sampledStories(
        stories,
        request,
        plans,
        tree,
        keep,
        budget,
        draws,
        tallies.sample?.population ?? 0,
      );
    // Shard by shard, as the tallies are summed (the facet sums are floating point).
    for (const hits of perShard(
      draws.filter((d) => d.match !== null),
      plans.length,
    ))
      for (const d of hits) {
        const fields = facetFieldsAt(d.shard, d.doc);
        // Each draw of an article stands for population / (size × k) articles (Horvitz–Thompson).
        const weight = (tallies.sample as SearchSample).population / (size * d.k);
        if (fields !== undefined) facets.add(fields, (d.match as ArticleMatch).occurrences * weight, weight);
      }
  }
  const listable = (l: { shard: number; match: ArticleMatch }) =>
    isAfter(position, (shards[l.shard] as ShardHandle).shardId, (shards[l.shard] as ShardHandle).docBase + l.match.doc);
  const after =
    dedupe === undefined
      ? tallies.listed.filter(listable)
      : shards.flatMap((shard, i) => {
          const mine = tallies.listed.filter((l) => l.shard === i);
          return dedupe
            .firstOfStories(
              shard,
              mine.map((l) => l.match),
              (m) => listable({ shard: i, match: m }),
            )
            .map((match) => ({ shard: i, match }));
        });
  const pageSize = request.page_size ?? QUERY_LIMITS.pageDefault;
  const at = (l: { shard: number; match: ArticleMatch }) => ({
    shard_id: (shards[l.shard] as ShardHandle).shardId,
    doc_ix: (shards[l.shard] as ShardHandle).docBase + l.match.doc,
  });
  const spanning = dedupe?.spanning(request, shards) ?? [];
  const listed = (dedupe === undefined ? after.slice(0, pageSize) : dedupe.pageOf(after, pageSize, at, spanning)).map(
    (l) =>
      pageArticle(
        shards[l.shard] as ShardHandle,
        l.match,
        stores[l.shard]?.get((shards[l.shard] as ShardHandle).docBase + l.match.doc) ?? null,
      ),
  );
  // Sampled: a story's copies are its matching articles counted from its members, not the draws that saw it.
  const page =
    dedupe === undefined
      ? listed
      : dedupe
          .withCopies(listed)
          .map((a) => (a.story === undefined ? a : { ...a, copies: sampled?.copies.get(a.story)?.copies ?? a.copies }));
  const periods = new Map<string, SearchPeriod & { shard_ids: string[] }>();
  shards.forEach((shard) => {
    const key = crawlPeriodOf(shard.shardId);
    const p = periods.get(key);
    if (p !== undefined) p.shard_ids.push(shard.shardId);
    else {
      const { value, low, high } = tallies.periods.get(key) ?? { value: 0, low: 0, high: 0 };
      periods.set(key, {
        period: key,
        year: shard.year,
        articles: value,
        interval: { low, high },
        shard_ids: [shard.shardId],
      });
    }
  });
  return {
    index_version: release.indexVersion,
    query: canonicalText(tree),
    query_tree: tree,
    notes,
    articles: tallies.total.value,
    ...(dedupe === undefined ? {} : storyFields(dedupe.stories, sampled)),
    exact: tallies.sample === null,
    interval: { low: tallies.total.low, high: tallies.total.high },
    sample: tallies.sample,
    by_shard: shards.map((shard, i) => ({
      shard_id: shard.shardId,
      year: shard.year,
      articles: tallies.byShard[i] ?? 0,
    })),
    periods: [...periods.values()],
    facets: facets.top(Number.POSITIVE_INFINITY, 1),
    expansions,
    following: after.length,
    page,
    next_cursor: nextCursor(release.indexVersion, after.length, page),
    ...(spanning.length === 0 ? {} : { spanning_stories: spanning }),
    ...(sampled?.tally ? { story_sample: sampled.tally } : {}),
  };
}

/** `stories` and its interval: exact (the stories counted) or the sample's estimate. */
function storyFields(
  counted: number,
  sampled: SampledStories | undefined,
): Pick<SearchResult, 'stories' | 'stories_interval'> {
  if (sampled === undefined) return { stories: counted, stories_interval: { low: counted, high: counted } };
  const { value, low, high } = sampled.estimate;
  return { stories: value, stories_interval: { low, high } };
}

/**
 * The exact answer when the work fits: the drivers' occurrences within `locatedOccurrences` and the candidates that
 * pass the filters within `verifiedBytes` (summed before any is read); null past either, for a sample to answer.
 */
export async function exactTallies(
  plans: readonly ShardPlan[],
  tree: QueryNode,
  keep: (shard: number, doc: number) => boolean,
  budget: QueryBudget,
  path: EvaluationPath = 'auto',
): Promise<Tallies | null> {
  if (plans.reduce((n, p) => n + p.located, 0) > budget.limits.locatedOccurrences) return null;
  const candidates = await candidateArticles(plans, keep, budget.work, path);
  if (candidates.bytes > budget.limits.verifiedBytes) return null;
  const listed: Tallies['listed'] = [];
  const byShard: number[] = [];
  const periods = new Map<string, { value: number; low: number; high: number }>();
  const matched = await verifyArticles(plans, tree, candidates, budget);
  for (const [i, plan] of plans.entries()) {
    const matches = matched[i] as ArticleMatch[];
    for (const match of matches) listed.push({ shard: i, match });
    byShard.push(matches.length);
    const key = crawlPeriodOf(plan.shard.shardId);
    const n = (periods.get(key)?.value ?? 0) + matches.length;
    periods.set(key, { value: n, low: n, high: n });
  }
  const total = listed.length;
  return { byShard, total: { value: total, low: total, high: total }, periods, listed, sample: null };
}

/** Items grouped by their `shard` (index into the plans), in their order: one pass instead of a filter per shard. */
function perShard<T extends { readonly shard: number }>(items: readonly T[], shards: number): T[][] {
  const out: T[][] = Array.from({ length: shards }, () => []);
  for (const item of items) out[item.shard]?.push(item);
  return out;
}

/** The estimates of a sample: per shard, per period and in all, and the distinct matches it saw, in release order. */
function sampledTallies(plans: readonly ShardPlan[], draws: readonly SampledDraw[], sample: SearchSample): Tallies {
  const periodOf = (d: SampledDraw) => crawlPeriodOf((plans[d.shard] as ShardPlan).shard.shardId);
  const located = new Map<string, number>();
  for (const plan of plans)
    located.set(
      crawlPeriodOf(plan.shard.shardId),
      (located.get(crawlPeriodOf(plan.shard.shardId)) ?? 0) + plan.located,
    );
  const periods = new Map<string, { value: number } & SearchInterval>();
  for (const [key, n] of located)
    periods.set(
      key,
      estimateArticles(draws, sample.population, n, (d) => periodOf(d) === key),
    );
  const listed = new Map<string, { shard: number; match: ArticleMatch }>();
  for (const d of draws) if (d.match !== null) listed.set(`${d.shard}:${d.doc}`, { shard: d.shard, match: d.match });
  return {
    byShard: plans.map((p, i) => estimateArticles(draws, sample.population, p.located, (d) => d.shard === i).value),
    total: estimateArticles(draws, sample.population, sample.population, () => true),
    periods,
    listed: [...listed.values()].sort((a, b) => a.shard - b.shard || a.match.doc - b.match.doc),
    sample,
  };
}

function pageArticle(shard: ShardHandle, m: ArticleMatch, metadata: SearchArticle['metadata']): SearchArticle {
  const article = fieldReader(shard, m.term.field).documentBytes(m.doc);
  const { at, length } = m.hit;
  const context = QUERY_LIMITS.contextBytes;
  const text = (from: number, to: number) =>
    article.toString('utf8', Math.max(0, from), Math.min(article.length, to)).replace(/^\uFFFD+|\uFFFD+$/g, '');
  return {
    shard_id: shard.shardId,
    year: shard.year,
    doc_ix: shard.docBase + m.doc,
    metadata,
    first: {
      term: termLabel(m.term),
      offset: at,
      left: text(at - context, at),
      match: text(at, at + length),
      right: text(at + length, at + length + context),
    },
  };
}
