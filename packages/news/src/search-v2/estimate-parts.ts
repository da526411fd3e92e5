/**
 * `estimate` in three steps, so workers holding different shards can compute it together with the same result as
 * one worker: (1) each shard's candidate intervals, (2) the draws (or, exact, every rank) resolved to articles,
 * filter verdicts and facet labels where the shards are, (3) the sums and intervals, in one place (`combineEstimate`).
 * One worker runs the three in a row (estimate.ts); the gateway runs (1) and (2) on the workers and (3) itself.
 */
import type { ArticleMetadata, ReleaseIndex, ShardHandle } from '../release/types.ts';
import type { OpenRelease } from '../release/types.ts';
import { countInArticle } from '../matching/index.ts';
import { WorkBudget } from '../work-budget/index.ts';
import { V2Error } from './errors.ts';
import { facetFieldsOf, facetMetadataOf } from './facets.ts';
import { compileFilters } from './filters.ts';
import { shardsInYears } from './find.ts';
import { lookupIndex, lookupShard, lookupYearStore } from './release-lookup.ts';
import { RequestMatcher } from './matching.ts';
import { storiesOf } from './stories/index.ts';
import type { EstimateRequest } from './types.ts';
import type { WireOf } from './schema/fields.ts';
import type {
  EstimateIntervals as EstimateIntervalsSchema,
  ResolvedDoc as ResolvedDocSchema,
} from './calls/estimate.ts';

/** Step 1: the non-empty candidate intervals `[shard_id, lo, hi]`, one per spelling found, in shard order; every selected shard. */
export type EstimateIntervals = WireOf<typeof EstimateIntervalsSchema>;

/** The candidate occurrences of a plan: the ranks of all its intervals (the sample's population). */
export const candidateTotal = (plan: EstimateIntervals): number =>
  plan.intervals.reduce((sum, [, lo, hi]) => sum + hi - lo, 0);

/**
 * One resolved article (exact mode) or draw (sampled mode): `key` is `year:doc_ix`; `n` the article's occurrences
 * among the ranks (exact) or its occurrence count k (sampled), both 0 when it fails; `labels` only where it passes.
 */
export type ResolvedDoc = WireOf<typeof ResolvedDocSchema>;

/** Checks the request as `estimate` does (query, index, filters, years) and lists the candidate intervals. */
export function estimateIntervals(
  release: OpenRelease,
  request: EstimateRequest,
  work: WorkBudget = WorkBudget.unlimited(),
): EstimateIntervals {
  if (request.query.length === 0) throw new V2Error('invalid_query', 'estimate needs a non-empty query');
  const index = lookupIndex(release, request.index);
  compileFilters(request, index);
  storiesOf(index, request.dedupe);
  const matcher = new RequestMatcher(request.query, request, work);
  const intervals: (readonly [string, number, number])[] = [];
  const shardIds: string[] = [];
  for (const s of shardsInYears(release, request)) {
    shardIds.push(s.shardId);
    for (const iv of matcher.match(s).intervals) if (iv.hi > iv.lo) intervals.push([s.shardId, iv.lo, iv.hi]);
  }
  return { intervals, shard_ids: shardIds, facet_fields: facetFieldsOf(index) };
}

/** Metadata of the articles (`doc_ix` per year) in one read per year. */
function readMetadata(index: ReleaseIndex, byYear: Map<string, Set<number>>): Map<string, ArticleMetadata> {
  const out = new Map<string, ArticleMetadata>();
  for (const [year, set] of byYear) {
    const ixs = [...set];
    const rows = lookupYearStore(index, year).getMany(ixs);
    ixs.forEach((ix, i) => {
      const row = rows[i];
      if (row === undefined) throw new Error(`metadata store ${year} has no row for doc_ix ${ix}`);
      out.set(`${year}:${ix}`, row);
    });
  }
  return out;
}

function addTo(byYear: Map<string, Set<number>>, year: string, ix: number): void {
  let set = byYear.get(year);
  if (set === undefined) byYear.set(year, (set = new Set()));
  set.add(ix);
}

/**
 * Step 2. `draws` null (exact): every rank of this release's intervals, one entry per distinct article in
 * first-seen order. Otherwise one entry per draw `[shard_id, rank]`, in the order given.
 */
export async function resolveEstimate(
  release: OpenRelease,
  request: EstimateRequest,
  draws: readonly (readonly [string, number])[] | null,
  work: WorkBudget = WorkBudget.unlimited(),
): Promise<ResolvedDoc[]> {
  const index = lookupIndex(release, request.index);
  const passes = compileFilters(request, index);
  const matcher = new RequestMatcher(request.query, request, work);
  const byYear = new Map<string, Set<number>>();
  if (draws === null) {
    // Without whole_word every rank of the intervals counts: no per-rank test on this loop of up to 20,000 ranks.
    const wholeWord = matcher.options.wholeWord;
    const perDoc = new Map<string, { shard: ShardHandle; n: number; ix: number }>();
    for (const shard of shardsInYears(release, request)) {
      for (const { lo, hi } of matcher.match(shard).intervals) {
        for (let rank = lo; rank < hi; rank++) {
          if (work.due()) await work.pause();
          if (wholeWord && !matcher.counts(shard, rank)) continue;
          const ix = shard.docBase + shard.reader.locate(rank).doc;
          addTo(byYear, shard.year, ix);
          const key = `${shard.year}:${ix}`;
          const d = perDoc.get(key);
          if (d === undefined) perDoc.set(key, { shard, n: 1, ix });
          else d.n++;
        }
      }
    }
    const meta = readMetadata(index, byYear);
    const stories = storiesOf(index, request.dedupe);
    return [...perDoc].map(([key, { shard, n, ix }]) => {
      const m = meta.get(key) as ArticleMetadata;
      if (!passes(m)) return { shard_id: shard.shardId, key, n: 0, labels: null };
      const story = stories?.table.storyOf(shard.year, ix, stories.mode);
      return { shard_id: shard.shardId, key, n, labels: facetMetadataOf(m), ...(story === undefined ? {} : { story }) };
    });
  }
  const located: { handle: ShardHandle; doc: number; rank: number; key: string }[] = [];
  for (const [shardId, rank] of draws) {
    if (work.due()) await work.pause();
    const handle = lookupShard(index, shardId);
    const doc = handle.reader.locate(rank).doc;
    addTo(byYear, handle.year, handle.docBase + doc);
    located.push({ handle, doc, rank, key: `${handle.year}:${handle.docBase + doc}` });
  }
  const meta = readMetadata(index, byYear);
  const stories = storiesOf(index, request.dedupe);
  // k of an article: its occurrences of any spelling (every spelling it holds was found in its own shard).
  const spellings = new Map<string, Uint8Array[]>();
  const kOf = new Map<string, number>();
  const resolved: ResolvedDoc[] = [];
  for (const d of located) {
    if (work.due()) await work.pause();
    const m = meta.get(d.key) as ArticleMetadata;
    // A draw that fails the whole-word rule is a candidate that does not count, like one failing a filter.
    if (!passes(m) || !matcher.counts(d.handle, d.rank)) {
      resolved.push({ shard_id: d.handle.shardId, key: d.key, n: 0, labels: null });
      continue;
    }
    let k = kOf.get(d.key);
    if (k === undefined) {
      let sp = spellings.get(d.handle.shardId);
      if (sp === undefined)
        spellings.set(
          d.handle.shardId,
          (sp = matcher
            .match(d.handle)
            .intervals.filter((iv) => iv.hi > iv.lo)
            .map((iv) => iv.bytes)),
        );
      k = Math.max(1, countInArticle(d.handle.reader.documentBytes(d.doc), sp, matcher.options.wholeWord));
      kOf.set(d.key, k);
    }
    const story = stories?.table.storyOf(d.handle.year, d.handle.docBase + d.doc, stories.mode);
    resolved.push({
      shard_id: d.handle.shardId,
      key: d.key,
      n: k,
      labels: facetMetadataOf(m),
      ...(story === undefined ? {} : { story }),
    });
  }
  return resolved;
}
