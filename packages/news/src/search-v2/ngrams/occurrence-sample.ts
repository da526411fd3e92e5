/**
 * The occurrences an analysis reads (ngrams, collocations): per selected shard, every candidate rank when the
 * shard's intervals hold at most `exactRanks`, else a seeded uniform sample of `sampleSize` ranks drawn with
 * replacement, each then standing for `weight` = ranks / sampleSize occurrences. The decision and the draws are
 * per shard (seeded by the request's seed and the shard id), so workers holding different shards give parts whose
 * sums equal one worker's answer. Occurrences failing the whole-word rule or the metadata filters are dropped.
 */
import { ranksIn } from '../../matching/index.ts';
import type { OpenRelease, ReleaseIndex, ShardHandle } from '../../release/types.ts';
import type { Location } from '../../shard/index.ts';
import { WorkBudget } from '../../work-budget/index.ts';
import { compileFilters, hasNoFilter } from '../filters.ts';
import { shardsInYears } from '../find.ts';
import { RequestMatcher } from '../matching.ts';
import { locateRanks } from '../locate-range.ts';
import { lookupIndex, lookupYearStore } from '../release-lookup.ts';
import { sampleRanks } from '../sampling.ts';
import type { EstimateRequest } from '../types.ts';
import type { ArticleSpan } from './occurrence-words.ts';
import { WindowCache } from './window-cache.ts';
import { scanIsCheaper, scanOccurrences } from './text-scan.ts';
import { positionTextDraws, sampledInTextOrder, textDrawsScanIsCheaper } from './text-order-draws.ts';

export interface SampleBounds {
  /** Largest number of a shard's candidate ranks read one by one (an exact answer for that shard). */
  readonly exactRanks: number;
  /** Ranks drawn from a larger shard. */
  readonly sampleSize: number;
  /**
   * Draws in text order from a sampled shard of at most `sampleSize` × this many text bytes (text-order-draws.ts);
   * absent: in rank order always (collocations name each example by its rank).
   */
  readonly textOrderBytesPerDraw?: number;
}

/** A counted occurrence: where it is and which spelling matched there. */
export interface Occurrence {
  /** Its rank; undefined when it was found by reading the shard's text (`OccurrencePath` other than `located`). */
  readonly rank: number | undefined;
  readonly spelling: Uint8Array;
  /** Absolute byte position in the shard text. */
  readonly pos: number;
  readonly article: ArticleSpan;
}

/**
 * A shard's occurrences, or a part of them: a shard read by scanning its text comes in consecutive parts (a slice
 * of its articles each, so their windows are read while their text blocks are cached); `candidates` and `read`
 * are then the shard's on its first part and 0 on the others.
 */
export interface ShardOccurrences {
  readonly shard: ShardHandle;
  /** Candidate ranks of the shard (before filters). */
  readonly candidates: number;
  /** Ranks read: every candidate, or the sample size. */
  readonly read: number;
  /** Occurrences each read rank stands for: 1, or candidates / sample size. */
  readonly weight: number;
  /**
   * In text order (by position), not rank order: reading their windows in that order touches each compressed text
   * block once instead of once per occurrence (the compressed kind caches a few decoded blocks).
   */
  readonly occurrences: readonly Occurrence[];
}

export type OccurrenceRequest = Pick<
  EstimateRequest,
  | 'index'
  | 'query'
  | 'year_min'
  | 'year_max'
  | 'case'
  | 'whole_word'
  | 'languages'
  | 'commonlingua_languages'
  | 'topics'
  | 'sources'
  | 'countries'
> & { readonly seed?: number | null };

/**
 * How an exact shard's occurrences are found: by locating each rank (`located`: every occurrence has its rank), or
 * by reading the shard's text when that is estimated cheaper (`auto`, `scanIsCheaper`) or always (`text`, for tests);
 * occurrences found in the text have no rank. Sampled shards and `whole_word` always locate. Both ways give the
 * same occurrences in the same (text) order.
 */
export type OccurrencePath = 'located' | 'auto' | 'text';

/** FNV-1a of the shard id, mixed into the seed so each shard draws its own sample. */
export function shardSeed(seed: number, shardId: string): number {
  let h = 0x811c9dc5 ^ seed;
  for (let i = 0; i < shardId.length; i++) h = Math.imul(h ^ shardId.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/**
 * The occurrences that pass the whole-word rule, tested in text order after locating: the rule reads the text around
 * each one, and in rank order a compressed shard decoded about one text block per occurrence (10× the CPU).
 */
async function wholeWords(
  matcher: RequestMatcher,
  shard: ShardHandle,
  occurrences: readonly Occurrence[],
  work: WorkBudget,
): Promise<Occurrence[]> {
  const out: Occurrence[] = [];
  for (const o of occurrences) {
    if (work.due()) await work.pause();
    if (o.rank === undefined) throw new Error('whole_word tests located occurrences only');
    if (matcher.countsAt(shard, o.rank, { doc: o.article.doc, offset: o.pos - o.article.docStart, pos: o.pos }))
      out.push(o);
  }
  return out;
}

/** The occurrences whose article passes the request's metadata filters (one `getMany` per shard). */
function keptByFilters(
  occurrences: Occurrence[],
  shard: ShardHandle,
  index: ReleaseIndex,
  passes: ReturnType<typeof compileFilters>,
): Occurrence[] {
  if (occurrences.length === 0) return occurrences;
  const docs = [...new Set(occurrences.map((o) => shard.docBase + o.article.doc))];
  const rows = lookupYearStore(index, shard.year).getMany(docs);
  const pass = new Map(docs.map((d, i) => [d, rows[i] !== undefined && passes(rows[i])]));
  return occurrences.filter((o) => pass.get(shard.docBase + o.article.doc) === true);
}

/** The counted occurrences of the request's query, shard by shard, in chronological order. */
export async function* occurrencesOf(
  release: OpenRelease,
  request: OccurrenceRequest,
  bounds: SampleBounds,
  work: WorkBudget = WorkBudget.unlimited(),
  path: OccurrencePath = 'located',
): AsyncGenerator<ShardOccurrences> {
  const index = lookupIndex(release, request.index);
  const passes = compileFilters(request, index);
  const filtered = !hasNoFilter(request);
  const matcher = new RequestMatcher(request.query, request, work);
  for (const shard of shardsInYears(release, request)) {
    const intervals = matcher.match(shard).intervals.filter((iv) => iv.hi > iv.lo);
    const candidates = ranksIn(intervals);
    if (candidates === 0) continue;
    const exact = candidates <= bounds.exactRanks;
    const wholeWord = matcher.match(shard).wholeWord;
    const bytes = shard.reader.stats.textBytes;
    const textOrder =
      !exact && !wholeWord && sampledInTextOrder(bytes, bounds.sampleSize, bounds.textOrderBytesPerDraw);
    const seed = shardSeed(request.seed ?? 1, shard.shardId);
    const draws = textOrder ? sampleRanks([[0, candidates]], bounds.sampleSize, seed).map((d) => d.rank) : undefined;
    const kind = shard.reader.kind ?? 'sa';
    const scan =
      !wholeWord &&
      (path === 'text' ||
        (path === 'auto' &&
          (exact
            ? scanIsCheaper(kind, candidates, bytes, intervals.length)
            : textOrder && textDrawsScanIsCheaper(kind, candidates, bytes, intervals.length))));
    if (draws !== undefined && !scan) {
      const occurrences = positionTextDraws(shard.reader, intervals, draws);
      const kept = filtered ? keptByFilters(occurrences, shard, index, passes) : occurrences;
      yield { shard, candidates, read: draws.length, weight: candidates / draws.length, occurrences: kept };
      continue;
    }
    if (scan && (exact || draws !== undefined)) {
      const read = draws?.length ?? candidates;
      const weight = candidates / read;
      let first = true;
      for await (const occurrences of scanOccurrences(shard, intervals, candidates, work, draws)) {
        const kept = filtered ? keptByFilters(occurrences, shard, index, passes) : occurrences;
        yield { shard, candidates: first ? candidates : 0, read: first ? read : 0, weight, occurrences: kept };
        first = false;
      }
      continue;
    }
    const ranks: { rank: number; spelling: Uint8Array }[] = [];
    if (exact) {
      for (const iv of intervals) for (let r = iv.lo; r < iv.hi; r++) ranks.push({ rank: r, spelling: iv.bytes });
    } else {
      for (const d of sampleRanks(
        intervals.map((iv) => [iv.lo, iv.hi] as const),
        bounds.sampleSize,
        seed,
      )) {
        ranks.push({ rank: d.rank, spelling: (intervals[d.shard] as (typeof intervals)[number]).bytes });
      }
    }
    const at = await locateRanks(
      shard.reader,
      ranks.map((r) => r.rank),
      work,
    );
    const all = ranks.map(({ rank, spelling }, k): Occurrence => {
      const loc = at[k] as Location;
      const docStart = loc.pos - loc.offset;
      return {
        rank,
        spelling,
        pos: loc.pos,
        article: { doc: loc.doc, docStart, docEnd: docStart + shard.reader.documentLength(loc.doc) },
      };
    });
    // Stable: draws of one occurrence stay together, text-order draws keep their order.
    all.sort((a, b) => a.pos - b.pos);
    const located = wholeWord ? await wholeWords(matcher, shard, all, work) : all;
    const kept = filtered ? keptByFilters(located, shard, index, passes) : located;
    yield { shard, candidates, read: ranks.length, weight: exact ? 1 : candidates / ranks.length, occurrences: kept };
  }
}

/** How an analysis read its occurrences: the header fields both ngrams and collocations answer with. */
export interface SampleTotals {
  readonly mode: 'exact' | 'sampled';
  /** Candidate ranks of the selected shards (before filters). */
  readonly total_occurrences: number;
  readonly read_occurrences: number;
  /** Shards read from a sample (weight above 1). */
  readonly sampled_shards: number;
  readonly seed: number;
}

/** What `tallyOccurrences` hands each counted occurrence. */
export interface WeightedOccurrence {
  readonly occurrence: Occurrence;
  /** Occurrences it stands for (1 in an exact shard). */
  readonly weight: number;
  readonly shard: ShardHandle;
  /** What the word windows of the shard's occurrences share (window-cache.ts). */
  readonly memo: WindowCache;
}

/**
 * Reads the occurrences of the request's query (`occurrencesOf`), hands each counted one with its weight to `visit`
 * and tallies what was read: the one loop of ngrams and collocations. `counted` is Σ weights of the
 * occurrences handed over (read and kept by the filters): their number, estimated in sampled shards.
 * @example await tallyOccurrences(release, req, bounds, work, ({ weight }) => { n += weight }) // { totals: { mode: 'exact', … }, counted }
 */
export async function tallyOccurrences(
  release: OpenRelease,
  request: OccurrenceRequest,
  bounds: SampleBounds,
  work: WorkBudget,
  visit: (o: WeightedOccurrence) => void,
  path: OccurrencePath = 'located',
): Promise<{ readonly totals: SampleTotals; readonly counted: number }> {
  let total = 0;
  let read = 0;
  let sampled = 0;
  let counted = 0;
  let memo = new WindowCache();
  let shard: ShardHandle | undefined;
  for await (const part of occurrencesOf(release, request, bounds, work, path)) {
    total += part.candidates;
    read += part.read;
    // A scanned shard comes in several parts; `read` is its on the first only.
    if (part.weight !== 1 && part.read > 0) sampled++;
    // One memo per shard, across its parts.
    if (part.shard !== shard) memo = new WindowCache();
    shard = part.shard;
    for (const occurrence of part.occurrences) {
      if (work.due()) await work.pause();
      counted += part.weight;
      visit({ occurrence, weight: part.weight, shard: part.shard, memo });
    }
  }
  const totals: SampleTotals = {
    mode: sampled === 0 ? 'exact' : 'sampled',
    total_occurrences: total,
    read_occurrences: read,
    sampled_shards: sampled,
    seed: request.seed ?? 1,
  };
  return { totals, counted };
}
