import { addWords } from '../../release/index.ts';
import type { ShardHandle } from '../../release/types.ts';
import { WorkBudget } from '../../work-budget/index.ts';
import { seededRandom } from '../sampling.ts';

/** Bounds of counting the words of a filtered or query subcorpus (search-v2/DESIGN.md, "Frequency lists and keyness"). */
export const COUNT_LIMITS = {
  /** Articles and text bytes counted whole; past either the words come from a sample of articles. */
  exactArticles: 20_000,
  exactBytes: 8 * 1_048_576,
  /** Articles sampled past the exact bound, by default and at most. */
  sampleDefault: 2_000,
  sampleMax: 20_000,
} as const;

export type CountLimits = { readonly exactArticles: number; readonly exactBytes: number };

/** The sample a counted subcorpus was estimated from: articles drawn, of how many, and the seed. */
export interface ArticleSample {
  readonly size: number;
  readonly population: number;
  readonly seed: number;
}

/** Case-sensitive word counts of selected articles: exact, or scaled from a uniform sample of them. */
export interface CountedWords {
  readonly counts: ReadonlyMap<string, number>;
  readonly tokens: number;
  readonly exact: boolean;
  readonly sample: ArticleSample | null;
}

/** `n` distinct integers of [0, total), uniformly (a seeded partial Fisher–Yates over a sparse swap map), ascending. */
export function drawWithoutReplacement(total: number, n: number, seed: number): number[] {
  const random = seededRandom(seed);
  const swapped = new Map<number, number>();
  const out: number[] = [];
  for (let i = 0; i < Math.min(n, total); i++) {
    const j = i + Math.floor(random() * (total - i));
    out.push(swapped.get(j) ?? j);
    swapped.set(j, swapped.get(i) ?? i);
  }
  return out.sort((a, b) => a - b);
}

/**
 * The words of `docs` (per shard, same order as `shards`) counted with the analyses' segmenter. Exact up to
 * `limits` articles and bytes; past either, a simple random sample of `sampleSize` articles (seeded) whose counts
 * are scaled by population / size (an unbiased estimate of every count and of the tokens), rounded.
 */
export async function countArticles(
  shards: readonly ShardHandle[],
  docs: readonly (readonly number[])[],
  options: { readonly sampleSize: number; readonly seed: number },
  work: WorkBudget = WorkBudget.unlimited(),
  limits: CountLimits = COUNT_LIMITS,
): Promise<CountedWords> {
  const flat = docs.flatMap((list, shard) => list.map((doc) => ({ shard, doc })));
  let bytes = 0;
  for (const { shard, doc } of flat) bytes += (shards[shard] as ShardHandle).reader.documentLength(doc);
  const exact = flat.length <= limits.exactArticles && bytes <= limits.exactBytes;
  const picked = exact
    ? flat
    : drawWithoutReplacement(flat.length, options.sampleSize, options.seed).map((i) => flat[i]);
  const counts = new Map<string, number>();
  for (const at of picked) {
    if (at === undefined) continue;
    if (work.due()) await work.pause();
    // The builder's own counting of a table (release/word-counts), so an exact count equals the tables'.
    addWords(counts, (shards[at.shard] as ShardHandle).reader.documentBytes(at.doc).toString('utf8'));
  }
  let tokens = 0;
  for (const n of counts.values()) tokens += n;
  if (exact || picked.length === flat.length) return { counts, tokens, exact: true, sample: null };
  const scale = flat.length / picked.length;
  for (const [w, n] of counts) counts.set(w, Math.round(n * scale));
  return {
    counts,
    tokens: Math.round(tokens * scale),
    exact: false,
    sample: { size: picked.length, population: flat.length, seed: options.seed },
  };
}

/** The samples of workers' answers as one (sizes and populations summed; null when no part sampled). */
export function combineSamples(samples: readonly (ArticleSample | null | undefined)[]): ArticleSample | null {
  const drawn = samples.filter((s): s is ArticleSample => s != null);
  const first = drawn[0];
  if (first === undefined) return null;
  return {
    size: drawn.reduce((n, s) => n + s.size, 0),
    population: drawn.reduce((n, s) => n + s.population, 0),
    seed: first.seed,
  };
}
