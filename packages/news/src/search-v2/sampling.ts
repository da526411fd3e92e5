/**
 * Seeded uniform sampling of occurrence ranks across several shards' intervals, and the interval arithmetic of
 * the estimates. Pure and deterministic: the same seed gives the same sample, so an estimate is reproducible
 * (and cacheable) while a client can ask for another seed to see the sampling spread.
 */

/** splitmix32-style generator: 32-bit state, good enough uniformity for sampling, tiny and fast. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  const next32 = (): number => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
  // 53 random bits, so intervals above 2^32 ranks are sampled uniformly too.
  return () => ((next32() >>> 5) * 67_108_864 + (next32() >>> 6)) / 9_007_199_254_740_992;
}

/** One shard's part of a query: its index among the selected shards and its rank interval. */
export interface SampledRank {
  readonly shard: number;
  readonly rank: number;
}

/**
 * Draws `size` occurrences uniformly, with replacement, from the union of half-open intervals (each occurrence
 * equally likely whatever shard it is in). Returned sorted by shard then rank, which keeps reads local.
 */
export function sampleRanks(
  intervals: readonly (readonly [number, number])[],
  size: number,
  seed: number,
): SampledRank[] {
  const ends: number[] = [];
  let total = 0;
  for (const [lo, hi] of intervals) ends.push((total += hi - lo));
  if (total === 0 || size <= 0) return [];
  const random = seededRandom(seed);
  const out: SampledRank[] = [];
  for (let i = 0; i < size; i++) {
    const at = Math.floor(random() * total);
    // First shard whose cumulative end is beyond `at`.
    let a = 0;
    let b = ends.length - 1;
    while (a < b) {
      const m = (a + b) >>> 1;
      if ((ends[m] as number) > at) b = m;
      else a = m + 1;
    }
    const start = a === 0 ? 0 : (ends[a - 1] as number);
    out.push({ shard: a, rank: (intervals[a] as readonly [number, number])[0] + (at - start) });
  }
  return out.sort((x, y) => x.shard - y.shard || x.rank - y.rank);
}

/** z for a two-sided 95% interval. */
export const Z95 = 1.959963984540054;

/**
 * Wilson score interval of a proportion `hits / n` at 95%, scaled by `population`. It stays inside [0, population]
 * and behaves at 0 and n hits, where the plain normal interval collapses to a width of zero.
 */
export function wilsonInterval(hits: number, n: number, population: number): { low: number; high: number } {
  if (n === 0) return { low: 0, high: population };
  const p = hits / n;
  const z2 = Z95 * Z95;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (Z95 / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  // At 0 or n hits the bound on that side is exact; rounding must not move it.
  const low = hits === 0 ? 0 : Math.max(0, centre - half);
  const high = hits === n ? 1 : Math.min(1, centre + half);
  return { low: low * population, high: high * population };
}

/** Normal 95% interval of the population total from per-draw values x_i (each an unbiased estimate of total / N). */
export function meanInterval(
  values: readonly number[],
  population: number,
): { value: number; low: number; high: number } {
  const n = values.length;
  if (n === 0) return { value: 0, low: 0, high: 0 };
  let sum = 0;
  for (const v of values) sum += v;
  const mean = sum / n;
  let sq = 0;
  for (const v of values) sq += (v - mean) * (v - mean);
  const sd = n > 1 ? Math.sqrt(sq / (n - 1)) : 0;
  const half = (Z95 * sd) / Math.sqrt(n);
  return { value: mean * population, low: Math.max(0, mean - half) * population, high: (mean + half) * population };
}
