/**
 * f_y under a metadata filter (search-v2/DESIGN.md, "Collocations"): per shard, the whole-word occurrences of the
 * word (substrings for words of scripts without spaces) in the articles passing the filters; over every candidate
 * rank when the shard holds at most `frequencyExactRanks`, else estimated from `frequencySampleSize` seeded draws.
 * Two ways to the same figure, chosen per shard by estimated cost (`choosePath`):
 * - `located`: each candidate rank located (its article, its position), kept when its article passes and the rule holds;
 * - `text`: the passing articles read once, in text order, and every candidate's spellings found in them. A sampled
 *   word's draws are ranks, which only `locate` places, so they take the located way on either path.
 */
import type { OpenRelease, ShardHandle } from '../../release/types.ts';
import { isWholeWordAtOffset, ranksIn } from '../../matching/index.ts';
import type { Location } from '../../shard/index.ts';
import { WorkBudget } from '../../work-budget/index.ts';
import { V2Error } from '../errors.ts';
import { compileFilters } from '../filters.ts';
import { shardsInYears } from '../find.ts';
import { locateRanks } from '../locate-range.ts';
import { RequestMatcher } from '../matching.ts';
import { lookupIndex, lookupYearStore } from '../release-lookup.ts';
import { sampleRanks } from '../sampling.ts';
import { ANALYSIS_LIMITS } from '../ngrams/limits.ts';
import { shardSeed, type OccurrenceRequest } from '../ngrams/occurrence-sample.ts';
import type { Counted } from './subcorpus.ts';

/** How the exact shards are counted: by estimated cost, or forced (tests show both give the same figures). */
export type FrequencyPath = 'auto' | 'located' | 'text';

/**
 * Estimated costs in ns (real corpora, German subcorpus, both kinds): per candidate rank a `locate` and its check in
 * its article, against per passing text byte its read (a block decode on the compressed kind) and one `indexOf`
 * pass per spelling. Only speed depends on them: both ways give the same figures.
 */
export const FREQUENCY_COSTS = {
  locate: { sa: 2_000, compressed: 20_000 },
  readByte: { sa: 0, compressed: 2 },
  scanByte: 0.5,
} as const;

/** A word's matcher: whole-word, or substrings for a word of a script without spaces (whole_word refuses it). */
function matcherOf(word: string, request: OccurrenceRequest, work: WorkBudget): RequestMatcher {
  try {
    return new RequestMatcher(word, { case: request.case, whole_word: true }, work);
  } catch (e) {
    if (e instanceof V2Error && e.code === 'whole_word_unsupported')
      return new RequestMatcher(word, { case: request.case, whole_word: false }, work);
    throw e;
  }
}

/** The articles of a shard passing the filters: a flag per shard-local article, their list and text bytes. */
interface PassingArticles {
  readonly passes: Uint8Array;
  readonly docs: readonly number[];
  readonly bytes: number;
}

function passingArticles(shard: ShardHandle, request: OccurrenceRequest, release: OpenRelease): PassingArticles {
  const index = lookupIndex(release, request.index);
  const keep = compileFilters(request, index);
  const store = lookupYearStore(index, shard.year);
  const passes = new Uint8Array(shard.reader.stats.docCount);
  const docs: number[] = [];
  let bytes = 0;
  for (let doc = 0; doc < passes.length; doc++) {
    const fields = store.filterFields(shard.docBase + doc);
    if (fields === undefined || !keep(fields)) continue;
    passes[doc] = 1;
    docs.push(doc);
    bytes += shard.reader.documentLength(doc);
  }
  return { passes, docs, bytes };
}

/** One word's spellings in one shard (one per case variant present) and their candidate ranks. */
interface ShardWord {
  readonly at: number;
  readonly wholeWord: boolean;
  readonly intervals: readonly { readonly lo: number; readonly hi: number; readonly bytes: Uint8Array }[];
}

/** A located occurrence in a passing article, to test against the rule once its article is read. */
interface Pending {
  readonly word: number;
  readonly doc: number;
  /** Byte offset in the article. */
  readonly offset: number;
  readonly length: number;
}

/** Locates `ranks` of one word, keeping those in passing articles: the rule is tested later, article by article. */
async function locateInPassing(
  shard: ShardHandle,
  articles: PassingArticles,
  word: number,
  ranks: readonly { readonly rank: number; readonly bytes: Uint8Array }[],
  work: WorkBudget,
  into: Pending[],
): Promise<void> {
  const at = await locateRanks(
    shard.reader,
    ranks.map((r) => r.rank),
    work,
  );
  ranks.forEach(({ bytes }, k) => {
    const loc = at[k] as Location;
    if (articles.passes[loc.doc] === 1) into.push({ word, doc: loc.doc, offset: loc.offset, length: bytes.length });
  });
}

/**
 * Reads the articles once, in text order (the compressed kind keeps a few decoded text blocks): those holding a
 * located occurrence, whose rule is tested, and with `scan`, every passing article, where the scanned words'
 * spellings are found. Adds the hits to `hits` (per word index).
 */
async function readArticles(
  shard: ShardHandle,
  articles: PassingArticles,
  pending: Pending[],
  scan: readonly ShardWord[],
  wholeWord: readonly boolean[],
  hits: number[],
  work: WorkBudget,
): Promise<void> {
  pending.sort((a, b) => a.doc - b.doc);
  const docs = scan.length > 0 ? articles.docs : [...new Set(pending.map((p) => p.doc))];
  let next = 0;
  for (const doc of docs) {
    if (work.due()) await work.pause();
    const article = shard.reader.documentBytes(doc);
    for (; next < pending.length && (pending[next] as Pending).doc === doc; next++) {
      const p = pending[next] as Pending;
      if (!wholeWord[p.word] || isWholeWordAtOffset(article, p.offset, p.length))
        hits[p.word] = (hits[p.word] ?? 0) + 1;
    }
    for (const w of scan) {
      for (const { bytes } of w.intervals) {
        for (let at = article.indexOf(bytes); at !== -1; at = article.indexOf(bytes, at + 1)) {
          if (!w.wholeWord || isWholeWordAtOffset(article, at, bytes.length)) hits[w.at] = (hits[w.at] ?? 0) + 1;
        }
      }
    }
  }
}

/** The cheaper way to count a shard's exact words, by the estimates of `FREQUENCY_COSTS`. */
export function choosePath(
  kind: 'sa' | 'compressed',
  candidateRanks: number,
  passingBytes: number,
  spellings: number,
): 'located' | 'text' {
  const located = candidateRanks * FREQUENCY_COSTS.locate[kind];
  const text = passingBytes * (FREQUENCY_COSTS.readByte[kind] + spellings * FREQUENCY_COSTS.scanByte);
  return text < located ? 'text' : 'located';
}

/**
 * f_y of each of `words` in the request's filtered subcorpus (never `exact`: a whole-word count also counts a word
 * inside a longer segment, see subcorpus.ts). Per shard, in release order, so parts of a release add up.
 * @example (await filteredFrequencies(release, { index: 'news', query: 'x', languages: ['de'] }, ['Regierung'])).get('Regierung') // { value: 412, exact: false }
 */
export async function filteredFrequencies(
  release: OpenRelease,
  request: OccurrenceRequest,
  words: readonly string[],
  work: WorkBudget = WorkBudget.unlimited(),
  path: FrequencyPath = 'auto',
): Promise<Map<string, Counted>> {
  const { frequencyExactRanks: exactRanks, frequencySampleSize: sampleSize } = ANALYSIS_LIMITS;
  const matchers = words.map((w) => matcherOf(w, request, work));
  const wholeWord = matchers.map((m) => m.options.wholeWord);
  const values = words.map(() => 0);
  for (const shard of shardsInYears(release, request)) {
    const articles = passingArticles(shard, request, release);
    // No article passes: every count there is 0, exact or sampled (no draw can pass).
    if (articles.docs.length === 0) continue;
    const exact: ShardWord[] = [];
    // Occurrences each hit stands for: 1 in an exact word, candidates / draws in a sampled one.
    const weights = words.map(() => 1);
    const pending: Pending[] = [];
    for (const [at, matcher] of matchers.entries()) {
      const intervals = matcher.match(shard).intervals.filter((iv) => iv.hi > iv.lo);
      const candidates = ranksIn(intervals);
      if (candidates === 0) continue;
      if (candidates <= exactRanks) {
        exact.push({ at, wholeWord: matcher.options.wholeWord, intervals });
        continue;
      }
      const draws = sampleRanks(
        intervals.map((iv) => [iv.lo, iv.hi] as const),
        sampleSize,
        shardSeed(request.seed ?? 1, shard.shardId),
      ).map((d) => ({ rank: d.rank, bytes: (intervals[d.shard] as (typeof intervals)[number]).bytes }));
      weights[at] = candidates / draws.length;
      await locateInPassing(shard, articles, at, draws, work, pending);
    }
    const ranks = exact.reduce((n, w) => n + ranksIn(w.intervals), 0);
    const spellings = exact.reduce((n, w) => n + w.intervals.length, 0);
    const way = path === 'auto' ? choosePath(shard.reader.kind ?? 'sa', ranks, articles.bytes, spellings) : path;
    if (way === 'located') {
      for (const w of exact) {
        const all = w.intervals.flatMap((iv) =>
          Array.from({ length: iv.hi - iv.lo }, (_, k) => ({ rank: iv.lo + k, bytes: iv.bytes })),
        );
        await locateInPassing(shard, articles, w.at, all, work, pending);
      }
    }
    const hits = words.map(() => 0);
    await readArticles(shard, articles, pending, way === 'text' ? exact : [], wholeWord, hits, work);
    // One addition per word and shard, in shard order: the figure a single pass over the shards would give.
    hits.forEach((h, i) => {
      if (h > 0) values[i] = (values[i] as number) + h * (weights[i] as number);
    });
  }
  return new Map(words.map((w, i) => [w, { value: values[i] as number, exact: false }]));
}
