import type { OpenRelease, ShardHandle } from '../../release/types.ts';
import { WorkBudget } from '../../work-budget/index.ts';
import type { WordCase } from '../../words/index.ts';
import { V2Error } from '../errors.ts';
import { COUNT_LIMITS, countArticles, type ArticleSample, type CountLimits } from './count-articles.ts';
import { isWholePeriods, shardsOfSubcorpus, type Subcorpus } from './subcorpus.ts';
import { subcorpusArticles } from './subcorpus-articles.ts';
import { foldCounts, mergedCounts, requireWordCounts, tokensOf, type SortedCounts } from './word-tables.ts';

/** A subcorpus resolved to its words: whole periods (the tables) or counted articles (filters, a query, the rest). */
export type ResolvedSubcorpus =
  | { readonly kind: 'tables'; readonly shards: readonly ShardHandle[]; readonly tokens: number }
  | {
      readonly kind: 'counted';
      readonly shards: readonly ShardHandle[];
      readonly tokens: number;
      readonly counts: SortedCounts;
      readonly exact: boolean;
      readonly sample: ArticleSample | null;
    };

/** The sample options of a word-count request (`sample_size` articles, `seed`), defaults applied. */
export interface SampleOptions {
  readonly sample_size?: number | null;
  readonly seed?: number | null;
}

const byWord = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function sortedOf(counts: ReadonlyMap<string, number>, wordCase: WordCase): SortedCounts {
  const words = [...counts.keys()].sort(byWord);
  const sorted = { words, counts: Float64Array.from(words, (w) => counts.get(w) ?? 0) };
  return wordCase === 'sensitive' ? sorted : foldCounts(sorted);
}

/**
 * The one resolver of a subcorpus (frequencies, keyness): its shards, and either the word-count tables (whole
 * periods) or the counts of its selected articles (count-articles.ts: exact up to COUNT_LIMITS, else sampled).
 */
export async function resolveSubcorpus(
  release: OpenRelease,
  indexName: string,
  sub: Subcorpus,
  wordCase: WordCase,
  options: SampleOptions,
  work: WorkBudget = WorkBudget.unlimited(),
  limits: CountLimits = COUNT_LIMITS,
): Promise<ResolvedSubcorpus> {
  const shards = shardsOfSubcorpus(release, indexName, sub);
  if (isWholePeriods(sub)) {
    requireWordCounts(shards);
    return { kind: 'tables', shards, tokens: tokensOf(shards) };
  }
  const docs = await subcorpusArticles(release, indexName, sub, shards, work);
  const counted = await countArticles(
    shards,
    docs,
    { sampleSize: options.sample_size ?? COUNT_LIMITS.sampleDefault, seed: options.seed ?? 1 },
    work,
    limits,
  );
  return {
    kind: 'counted',
    shards,
    tokens: counted.tokens,
    counts: sortedOf(counted.counts, wordCase),
    exact: counted.exact,
    sample: counted.sample,
  };
}

/** Every word of a resolved subcorpus with its count, sorted by word. */
export const countsOf = (r: ResolvedSubcorpus, wordCase: WordCase): SortedCounts =>
  r.kind === 'tables' ? mergedCounts(r.shards, wordCase) : r.counts;

/**
 * The rest of a counted subcorpus: the articles of its shards it does not hold, as their tables minus its counts
 * (exact when it is; from an estimate, a count is clamped at 0 and the rest is an estimate too).
 */
export function restOf(r: ResolvedSubcorpus, wordCase: WordCase): ResolvedSubcorpus {
  if (r.kind === 'tables')
    throw new V2Error(
      'invalid_subcorpus',
      'b: "rest" needs a subcorpus a with filters or a query (the rest of whole periods is empty)',
    );
  requireWordCounts(r.shards);
  const all = mergedCounts(r.shards, wordCase);
  const words: string[] = [];
  const counts: number[] = [];
  let j = 0;
  all.words.forEach((word, i) => {
    while (j < r.counts.words.length && (r.counts.words[j] as string) < word) j++;
    const minus = r.counts.words[j] === word ? (r.counts.counts[j] ?? 0) : 0;
    const n = Math.max(0, (all.counts[i] ?? 0) - minus);
    if (n > 0) {
      words.push(word);
      counts.push(n);
    }
  });
  return {
    kind: 'counted',
    shards: r.shards,
    tokens: Math.max(0, tokensOf(r.shards) - r.tokens),
    counts: { words, counts: Float64Array.from(counts) },
    exact: r.exact,
    sample: r.sample,
  };
}
