/**
 * The two subcorpus figures the association scores need besides the windows: the collocate's own frequency
 * (f_y, counted in the index with whole-word matching) and the subcorpus's words (n, from a seeded sample of
 * articles). Both per shard, so workers holding different shards give parts that add up.
 */
import { ranksIn } from '../../matching/index.ts';
import type { OpenRelease, ShardHandle } from '../../release/types.ts';
import type { ShardReader } from '../../shard/types.ts';
import { WorkBudget } from '../../work-budget/index.ts';
import { wordsOf } from '../../words/index.ts';
import { V2Error } from '../errors.ts';
import { compileFilters, hasNoFilter } from '../filters.ts';
import { shardsInYears } from '../find.ts';
import { lookupIndex, lookupYearStore } from '../release-lookup.ts';
import { sampleRanks } from '../sampling.ts';
import { shardSeed, type OccurrenceRequest, type SampleBounds } from '../ngrams/occurrence-sample.ts';
import { RequestMatcher } from '../matching.ts';
import { ANALYSIS_LIMITS } from '../ngrams/limits.ts';

/** A figure and whether it was counted (true) or estimated from a sample (false). */
export interface Counted {
  readonly value: number;
  readonly exact: boolean;
}

/**
 * Whole-word occurrences of `word` in the request's years (case as the request): the fallback of an unfiltered
 * request where the word-count tables are not exact for the subcorpus (table-subcorpus.ts); a filtered request counts
 * through filtered-frequency.ts. Words of scripts without spaces (where the whole-word rule does not apply) are
 * counted as substrings. Per shard, counted up to `frequencyExactRanks` candidates, else from a seeded sample; never
 * `exact`, since the word's count as a segment differs (a word inside a longer segment counts here: "world" in
 * "world's", 都 in 東京都).
 */
export async function wordFrequency(
  release: OpenRelease,
  request: OccurrenceRequest,
  word: string,
  work: WorkBudget,
): Promise<Counted> {
  const bounds = { exactRanks: ANALYSIS_LIMITS.frequencyExactRanks, sampleSize: ANALYSIS_LIMITS.frequencySampleSize };
  const run = (wholeWord: boolean) =>
    countRanks(release, { ...request, query: word, whole_word: wholeWord }, bounds, work);
  const counted = await run(true).catch((e: unknown) => {
    if (e instanceof V2Error && e.code === 'whole_word_unsupported') return run(false);
    throw e;
  });
  return { value: counted.value, exact: false };
}

/** Occurrences of the request's query that count, per shard exact up to `bounds.exactRanks`, else from a seeded sample. */
async function countRanks(
  release: OpenRelease,
  request: OccurrenceRequest,
  bounds: SampleBounds,
  work: WorkBudget,
): Promise<Counted> {
  const matcher = new RequestMatcher(request.query, request, work);
  let value = 0;
  let exact = true;
  for (const shard of shardsInYears(release, request)) {
    const intervals = matcher.match(shard).intervals.filter((iv) => iv.hi > iv.lo);
    const candidates = ranksIn(intervals);
    if (!matcher.options.wholeWord || candidates === 0) {
      value += candidates;
      continue;
    }
    if (candidates <= bounds.exactRanks) {
      for (const iv of intervals) for (let r = iv.lo; r < iv.hi; r++) if (matcher.counts(shard, r)) value++;
      continue;
    }
    exact = false;
    const draws = sampleRanks(
      intervals.map((iv) => [iv.lo, iv.hi] as const),
      bounds.sampleSize,
      shardSeed(request.seed ?? 1, shard.shardId),
    );
    let hits = 0;
    for (const d of draws) {
      if (work.due()) await work.pause();
      if (matcher.counts(shard, d.rank)) hits++;
    }
    value += (hits * candidates) / draws.length;
  }
  return { value, exact };
}

/** Articles sampled per shard: 1 in `wordsSampleEvery`, at least `wordsSampleMin`, at most `wordsSampleMax` (all when fewer). */
function articlesToRead(docCount: number): number {
  const { wordsSampleEvery, wordsSampleMin, wordsSampleMax } = ANALYSIS_LIMITS;
  return Math.min(docCount, Math.max(wordsSampleMin, Math.min(wordsSampleMax, Math.ceil(docCount / wordsSampleEvery))));
}

/** One shard's fixed sample of articles: shard-local numbers, their words and their text bytes. */
interface WordSample {
  readonly docs: readonly number[];
  readonly words: readonly number[];
  readonly bytes: readonly number[];
  readonly whole: boolean;
}

/**
 * Segmenting is the slow part (ICU's Japanese dictionary: ~1–3 MB/s), so each shard's sample is segmented once per
 * process and kept with its reader: a few hundred numbers per shard. Case folding does not change the word count.
 */
const SAMPLES = new WeakMap<ShardReader, WordSample>();

async function wordSampleOf(shard: ShardHandle, work: WorkBudget): Promise<WordSample> {
  const known = SAMPLES.get(shard.reader);
  if (known !== undefined) return known;
  const docCount = shard.reader.stats.docCount;
  const k = articlesToRead(docCount);
  const whole = k === docCount;
  const docs = whole
    ? Array.from({ length: docCount }, (_, d) => d)
    : sampleRanks([[0, docCount]], k, shardSeed(0, shard.shardId)).map((d) => d.rank);
  const words: number[] = [];
  const bytes: number[] = [];
  for (const d of docs) {
    if (work.due()) await work.pause();
    const text = shard.reader.documentBytes(d);
    let n = 0;
    for (const _ of wordsOf(text.toString('utf8'))) n++;
    words.push(n);
    bytes.push(text.length);
  }
  const sample = { docs, words, bytes, whole };
  SAMPLES.set(shard.reader, sample);
  return sample;
}

/**
 * Words of the subcorpus: per selected shard, the words per text byte of a fixed seeded sample of its articles (all of
 * a small shard) times the shard's text bytes, words of articles failing the filters counted 0: a ratio estimate,
 * since words follow article length closely. Exact when every shard was read whole.
 */
export async function subcorpusWords(
  release: OpenRelease,
  request: OccurrenceRequest,
  work: WorkBudget = WorkBudget.unlimited(),
): Promise<Counted> {
  const index = lookupIndex(release, request.index);
  const passes = compileFilters(request, index);
  const filtered = !hasNoFilter(request);
  let value = 0;
  let exact = true;
  for (const shard of shardsInYears(release, request)) {
    const sample = await wordSampleOf(shard, work);
    if (!sample.whole) exact = false;
    const rows = filtered ? lookupYearStore(index, shard.year).getMany(sample.docs.map((d) => shard.docBase + d)) : [];
    let words = 0;
    let bytes = 0;
    sample.docs.forEach((_, i) => {
      bytes += sample.bytes[i] ?? 0;
      const row = rows[i];
      if (!filtered || (row !== undefined && passes(row))) words += sample.words[i] ?? 0;
    });
    // Rounded per shard, so parts of a release round as the whole does.
    const shardBytes = shard.reader.stats.textBytes - shard.reader.stats.docCount;
    value += bytes === 0 ? 0 : sample.whole ? words : Math.round((words / bytes) * shardBytes);
  }
  return { value, exact };
}
