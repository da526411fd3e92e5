import type { ArticleMetadata, ReleaseIndex, ShardHandle } from '../release/types.ts';
import type { OpenRelease } from '../release/types.ts';
import { V2Error } from './errors.ts';
import { FacetCounter } from './facets.ts';
import { compileFilters, type DocumentPredicate } from './filters.ts';
import { shardsInYears } from './find.ts';
import { V2_LIMITS } from './limits.ts';
import { lookupIndex, lookupYearStore } from './release-lookup.ts';
import { RequestMatcher } from './matching.ts';
import { countInArticle } from '../matching/index.ts';
import { meanInterval, sampleRanks, wilsonInterval } from './sampling.ts';
import type { EstimateRequest, EstimateResult, FacetField } from './types.ts';

const DEFAULT_SEED = 1;

/** Metadata of the articles (`doc_ix` per year) in one read per year. */
function readMetadata(index: ReleaseIndex, byYear: Map<string, Set<number>>): Map<string, ArticleMetadata> {
  const out = new Map<string, ArticleMetadata>();
  for (const [year, set] of byYear) {
    const ixs = [...set];
    const rows = lookupYearStore(index, year).getMany(ixs);
    ixs.forEach((ix, i) => {
      const row = rows[i];
      if (row === undefined) throw new Error(`metadata store ${year} has no row for doc_ix ${ix}`);
      out.set(`${year}\u0000${ix}`, row);
    });
  }
  return out;
}

/** The selected shards' candidate ranks: one interval per spelling, each tagged with its shard. */
interface Selection {
  readonly shards: readonly ShardHandle[];
  /** Index into `shards` of each interval. */
  readonly shardOf: readonly number[];
  readonly intervals: readonly (readonly [number, number])[];
  readonly total: number;
  readonly matcher: RequestMatcher;
  /** Every spelling found, for counting an article's occurrences (the k of the article estimator). */
  readonly spellings: readonly Uint8Array[];
}

function exact(index: ReleaseIndex, sel: Selection, passes: DocumentPredicate, facets: FacetCounter) {
  // Without whole_word every rank of the intervals counts: no per-rank test on this loop of up to 20,000 ranks.
  const wholeWord = sel.matcher.options.wholeWord;
  const perDoc = new Map<string, number>();
  const byYear = new Map<string, Set<number>>();
  sel.intervals.forEach(([lo, hi], i) => {
    const shard = sel.shards[sel.shardOf[i] as number] as ShardHandle;
    let set = byYear.get(shard.year);
    if (set === undefined) byYear.set(shard.year, (set = new Set()));
    for (let rank = lo; rank < hi; rank++) {
      if (wholeWord && !sel.matcher.counts(shard, rank)) continue;
      const ix = shard.docBase + shard.reader.locate(rank).doc;
      set.add(ix);
      const key = `${shard.year}\u0000${ix}`;
      perDoc.set(key, (perDoc.get(key) ?? 0) + 1);
    }
  });
  const meta = readMetadata(index, byYear);
  let occurrences = 0;
  let articles = 0;
  for (const [key, n] of perDoc) {
    const m = meta.get(key) as ArticleMetadata;
    if (!passes(m)) continue;
    occurrences += n;
    articles++;
    facets.add(m, n, 1);
  }
  return { occurrences: { value: occurrences, low: occurrences, high: occurrences }, articles: { value: articles, low: articles, high: articles } };
}

function sampled(index: ReleaseIndex, sel: Selection, size: number, seed: number, passes: DocumentPredicate, facets: FacetCounter) {
  const draws = sampleRanks(sel.intervals, size, seed).map(({ shard: i, rank }) => {
    const handle = sel.shards[sel.shardOf[i] as number] as ShardHandle;
    const doc = handle.reader.locate(rank).doc;
    // A draw that fails the whole-word rule is a candidate that does not count, like one failing a filter.
    return { handle, doc, rank, key: `${handle.year}\u0000${handle.docBase + doc}` };
  });
  const byYear = new Map<string, Set<number>>();
  for (const d of draws) {
    let set = byYear.get(d.handle.year);
    if (set === undefined) byYear.set(d.handle.year, (set = new Set()));
    set.add(d.handle.docBase + d.doc);
  }
  const meta = readMetadata(index, byYear);
  const kOf = new Map<string, number>();
  let hits = 0;
  // Horvitz–Thompson: an article with k occurrences is drawn k times as often, so each draw of it counts 1/k.
  const articleShares = draws.map((d) => {
    const m = meta.get(d.key) as ArticleMetadata;
    if (!passes(m) || !sel.matcher.counts(d.handle, d.rank)) return 0;
    let k = kOf.get(d.key);
    if (k === undefined) {
      k = Math.max(1, countInArticle(d.handle.reader.documentBytes(d.doc), sel.spellings, sel.matcher.options.wholeWord));
      kOf.set(d.key, k);
    }
    hits++;
    facets.add(m, 1, 1 / k);
    return 1 / k;
  });
  const n = draws.length;
  const occ = wilsonInterval(hits, n, sel.total);
  const art = meanInterval(articleShares, sel.total);
  // Every distinct matching article seen in the sample certainly exists.
  const seen = kOf.size;
  return {
    occurrences: { value: Math.round((hits / n) * sel.total), low: Math.max(hits, Math.floor(occ.low)), high: Math.ceil(occ.high) },
    articles: { value: Math.max(seen, Math.round(art.value)), low: Math.max(seen, Math.floor(art.low)), high: Math.max(seen, Math.ceil(art.high)) },
  };
}

/**
 * v2 estimate: how many occurrences and articles of a query pass the metadata filters, with facet counts of the
 * matching articles. Exact (every rank resolved) when the query has at most 20,000 occurrences in the selected
 * years; otherwise estimated from a seeded uniform sample of ranks with 95% intervals (Wilson for occurrences,
 * Horvitz–Thompson with a normal interval for articles). Facets of a sample are scaled to the population.
 *
 * @example estimate(release, { index: 'news', query: 'the', languages: ['ja'] }).matching_articles // { value, low, high }
 */
export function estimate(release: OpenRelease, request: EstimateRequest): EstimateResult {
  if (request.query.length === 0) throw new V2Error('invalid_query', 'estimate needs a non-empty query');
  const index = lookupIndex(release, request.index);
  const passes = compileFilters(request, index);
  const shards = shardsInYears(release, request);
  const matcher = new RequestMatcher(request.query, request);
  const shardOf: number[] = [];
  const intervals: (readonly [number, number])[] = [];
  const spellings = new Map<string, Uint8Array>();
  shards.forEach((s, i) => {
    for (const iv of matcher.match(s).intervals) {
      if (iv.hi <= iv.lo) continue;
      shardOf.push(i);
      intervals.push([iv.lo, iv.hi]);
      spellings.set(Buffer.from(iv.bytes).toString('latin1'), iv.bytes);
    }
  });
  const total = intervals.reduce((sum, [lo, hi]) => sum + hi - lo, 0);
  const sel: Selection = { shards, shardOf, intervals, total, matcher, spellings: [...spellings.values()] };
  const fields: FacetField[] = ['language', 'lang', 'topic', 'source', ...(index.hasCountryAttribution ? ['country' as const] : [])];
  const facets = new FacetCounter(fields);
  const seed = request.seed ?? DEFAULT_SEED;
  const size = request.sample_size ?? V2_LIMITS.estimateSampleDefault;
  const isExact = total <= V2_LIMITS.estimateExactRanks;
  const result = isExact ? exact(index, sel, passes, facets) : sampled(index, sel, size, seed, passes, facets);
  return {
    index_version: release.indexVersion,
    query: request.query,
    mode: isExact ? 'exact' : 'sampled',
    total_occurrences: total,
    resolved_ranks: isExact ? total : size,
    seed,
    confidence: 0.95,
    matching_occurrences: result.occurrences,
    matching_articles: result.articles,
    facets: facets.top(V2_LIMITS.facetValues, isExact ? 1 : total / size),
  };
}
