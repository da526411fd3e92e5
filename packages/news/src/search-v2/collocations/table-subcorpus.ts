/**
 * The subcorpus figures of the association scores read from the shards' word-count tables (frequencies/word-tables.ts)
 * instead of the index: f_y is the word's count among the shards' words, n their tokens, both exact and no text is
 * read. Only where the tables are exact for the subcorpus: whole shards (no metadata filter) each with a table that
 * stores every word (floor 1); otherwise the caller counts through the index (subcorpus.ts).
 */
import type { OpenRelease, ShardHandle } from '../../release/types.ts';
import type { WordCase } from '../../words/index.ts';
import { V2Error } from '../errors.ts';
import { hasNoFilter } from '../filters.ts';
import { shardsInYears } from '../find.ts';
import { shardWordCounts, tokensOf, type WordCounts } from '../frequencies/word-tables.ts';
import type { OccurrenceRequest } from '../ngrams/occurrence-sample.ts';
import type { Counted } from './subcorpus.ts';

export interface TableSubcorpus {
  /** n: word tokens of the selected shards. */
  readonly words: Counted;
  /** f_y: the word's count in the selected shards (folded words with `case: insensitive`). */
  frequency(word: string): Counted;
}

/** Count of `word` in a table sorted by UTF-16 code units (JS `<`); 0 when absent. */
export function countInTable(table: WordCounts, word: string): number {
  let lo = 0;
  let hi = table.words.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((table.words[mid] as string) < word) lo = mid + 1;
    else hi = mid;
  }
  return table.words[lo] === word ? (table.counts[lo] ?? 0) : 0;
}

/**
 * A readable table of every word: the floor left none out (a higher floor would make a missing word's count
 * unknown). A table this version cannot read (`word_counts_missing`) leaves the count to the index.
 */
function storesEveryWord(shard: ShardHandle): boolean {
  if (shard.wordCounts === undefined) return false;
  try {
    return shardWordCounts(shard, 'sensitive').words.length === shard.wordCounts.types;
  } catch (e) {
    if (e instanceof V2Error && e.code === 'word_counts_missing') return false;
    throw e;
  }
}

/**
 * The tables' figures for the request's subcorpus, or null when they are not exact for it (a metadata filter keeps
 * parts of shards, or a shard has no table of every word).
 * @example tableSubcorpus(release, { index: 'news', query: 'oil' })?.frequency('crude') // { value: 681, exact: true }
 */
export function tableSubcorpus(release: OpenRelease, request: OccurrenceRequest): TableSubcorpus | null {
  if (!hasNoFilter(request)) return null;
  const shards = shardsInYears(release, request);
  if (!shards.every(storesEveryWord)) return null;
  const wordCase: WordCase = request.case === 'insensitive' ? 'insensitive' : 'sensitive';
  const tables = shards.map((s) => shardWordCounts(s, wordCase));
  return {
    words: { value: tokensOf(shards), exact: true },
    frequency: (word) => ({ value: tables.reduce((n, t) => n + countInTable(t, word), 0), exact: true }),
  };
}
