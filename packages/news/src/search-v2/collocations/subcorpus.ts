/**
 * The two subcorpus figures the association scores need besides the windows: the collocate's own frequency
 * (f_y, counted in the index with whole-word matching) and the subcorpus's words (n, from a seeded sample of
 * articles). Both per shard, so workers holding different shards give parts that add up.
 */
import type { OpenRelease } from '../../release/types.ts';
import { WorkBudget } from '../../work-budget/index.ts';
import { wordsOf } from '../../words/index.ts';
import { V2Error } from '../errors.ts';
import { compileFilters, hasNoFilter } from '../filters.ts';
import { shardsInYears } from '../find.ts';
import { lookupIndex, lookupYearStore } from '../release-lookup.ts';
import { sampleRanks } from '../sampling.ts';
import { occurrencesOf, shardSeed, type OccurrenceRequest } from '../ngrams/occurrence-sample.ts';
import { ANALYSIS_LIMITS } from '../ngrams/limits.ts';

/** A figure and whether it was counted (true) or estimated from a sample (false). */
export interface Counted {
  readonly value: number;
  readonly exact: boolean;
}

/**
 * Whole-word occurrences of `word` in the request's subcorpus (years, filters, case). Words of scripts without
 * spaces (where the whole-word rule does not apply) are counted as substrings. Per shard, exact up to
 * `frequencyExactRanks` candidates, else from a seeded sample.
 */
export async function wordFrequency(release: OpenRelease, request: OccurrenceRequest, word: string, work: WorkBudget): Promise<Counted> {
  const bounds = { exactRanks: ANALYSIS_LIMITS.frequencyExactRanks, sampleSize: ANALYSIS_LIMITS.frequencySampleSize };
  const run = async (wholeWord: boolean): Promise<Counted> => {
    let value = 0;
    let exact = true;
    for await (const part of occurrencesOf(release, { ...request, query: word, whole_word: wholeWord }, bounds, work)) {
      value += part.occurrences.length * part.weight;
      if (part.weight !== 1) exact = false;
    }
    return { value, exact };
  };
  try {
    return await run(true);
  } catch (e) {
    if (e instanceof V2Error && e.code === 'whole_word_unsupported') return run(false);
    throw e;
  }
}

/** Articles sampled per shard: 1 in `wordsSampleEvery`, at least `wordsSampleMin`, at most `wordsSampleMax` (all when fewer). */
function articlesToRead(docCount: number): number {
  const { wordsSampleEvery, wordsSampleMin, wordsSampleMax } = ANALYSIS_LIMITS;
  return Math.min(docCount, Math.max(wordsSampleMin, Math.min(wordsSampleMax, Math.ceil(docCount / wordsSampleEvery))));
}

/**
 * Words of the subcorpus: per selected shard, the words per text byte of a seeded sample of its articles (all of a
 * small shard) times the shard's text bytes; articles failing the filters count 0 words. Exact when every shard was
 * read whole.
 */
export async function subcorpusWords(release: OpenRelease, request: OccurrenceRequest, work: WorkBudget = WorkBudget.unlimited()): Promise<Counted> {
  const index = lookupIndex(release, request.index);
  const passes = compileFilters(request, index);
  const filtered = !hasNoFilter(request);
  const wordCase = request.case === 'insensitive' ? 'insensitive' : 'sensitive';
  let value = 0;
  let exact = true;
  for (const shard of shardsInYears(release, request)) {
    const docCount = shard.reader.stats.docCount;
    const k = articlesToRead(docCount);
    // Without replacement when reading all; a seeded draw (with replacement) otherwise.
    const docs = k === docCount
      ? Array.from({ length: docCount }, (_, d) => d)
      : sampleRanks([[0, docCount]], k, shardSeed(request.seed ?? 1, shard.shardId)).map((d) => d.rank);
    if (k !== docCount) exact = false;
    const rows = filtered ? lookupYearStore(index, shard.year).getMany(docs.map((d) => shard.docBase + d)) : [];
    let words = 0;
    let bytes = 0;
    for (const [i, d] of docs.entries()) {
      if (work.due()) await work.pause();
      const text = shard.reader.documentBytes(d);
      bytes += text.length;
      if (filtered) { const row = rows[i]; if (row === undefined || !passes(row)) continue; }
      for (const _ of wordsOf(text.toString('utf8'), wordCase)) words++;
    }
    // A ratio estimate (words per text byte of the sample, times the shard's text bytes): words follow article length
    // closely, so it varies far less than scaling the sample's words by the article count. Rounded per shard, so parts
    // of a release round as the whole does.
    const shardBytes = shard.reader.stats.textBytes - docCount;
    value += bytes === 0 ? 0 : k === docCount ? words : Math.round((words / bytes) * shardBytes);
  }
  return { value, exact };
}
