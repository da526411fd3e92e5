import { countInArticle, ranksIn } from '../../matching/index.ts';
import type { ShardHandle } from '../../release/types.ts';
import { WorkBudget } from '../../work-budget/index.ts';
import type { RequestMatcher } from '../matching.ts';
import { sampleSeed } from '../query/sample.ts';
import { wilsonInterval } from '../sampling.ts';
import { drawWithoutReplacement } from './count-articles.ts';

/**
 * Occurrences of one shard whose articles are located one by one for `share_of_articles`: about 20 ms on the SA kind
 * (one table lookup each), more on the compressed kind (sampled locate). Beyond it the share is estimated.
 */
export const SHARE_EXACT_OCCURRENCES = 20_000;

export interface ShareOptions {
  /** Candidate occurrences of a shard located exactly; past it a sample of articles is read. */
  readonly exactOccurrences: number;
  /** Articles of the shard drawn past the bound (all of a smaller shard: exact again). */
  readonly sampleArticles: number;
  readonly seed: number;
}

export const defaultShareOptions: ShareOptions = {
  exactOccurrences: SHARE_EXACT_OCCURRENCES,
  sampleArticles: 400,
  seed: 1,
};

/** Articles of a shard holding a match: exact (low = high = value) or estimated with its 95% interval. */
export interface ArticlesWithMatch {
  readonly value: number;
  readonly low: number;
  readonly high: number;
  readonly exact: boolean;
}

const exactly = (n: number): ArticlesWithMatch => ({ value: n, low: n, high: n, exact: true });

/**
 * The articles of `shard` holding an occurrence that counts (whole-word rule included). Exact by locating every
 * candidate occurrence when the shard has at most `exactOccurrences` of them; otherwise a seeded uniform sample of
 * the shard's articles (without replacement, seed mixed with the shard id) is read and each tested for an
 * occurrence of any spelling the index found: the share of hits scales to the shard, with the Wilson 95% interval
 * (conservative without a finite-population correction), kept within what the sample proves (every hit exists, every
 * miss is not one) and under the candidate occurrences. Per shard, so the answer does not depend on the workers.
 */
export async function articlesWithMatch(
  shard: ShardHandle,
  matcher: RequestMatcher,
  options: ShareOptions = defaultShareOptions,
  work: WorkBudget = WorkBudget.unlimited(),
): Promise<ArticlesWithMatch> {
  const m = matcher.match(shard);
  const candidates = ranksIn(m.intervals);
  const articles = shard.reader.stats.docCount;
  if (candidates <= options.exactOccurrences) {
    const docs = new Set<number>();
    for (const iv of m.intervals) {
      for (let rank = iv.lo; rank < iv.hi; rank++) if (m.counts(rank)) docs.add(shard.reader.locate(rank).doc);
    }
    return exactly(docs.size);
  }
  const spellings = m.intervals.filter((iv) => iv.hi > iv.lo).map((iv) => iv.bytes);
  const drawn = drawWithoutReplacement(articles, options.sampleArticles, sampleSeed(options.seed, [shard.shardId]));
  let hits = 0;
  for (const doc of drawn) {
    if (work.due()) await work.pause();
    if (countInArticle(shard.reader.documentBytes(doc), spellings, m.wholeWord) > 0) hits++;
  }
  if (drawn.length === articles) return exactly(hits);
  const n = drawn.length;
  const w = wilsonInterval(hits, n, articles);
  const most = Math.min(candidates, articles - (n - hits));
  const value = Math.min(most, Math.max(hits, Math.round((hits / n) * articles)));
  return {
    value,
    low: Math.min(value, Math.max(hits, Math.floor(w.low))),
    high: Math.max(value, Math.min(most, Math.ceil(w.high))),
    exact: false,
  };
}
