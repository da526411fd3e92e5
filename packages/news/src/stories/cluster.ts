import { estimateSimilarity, SIGNATURE_SLOTS } from './signature.ts';
import { UnionFind } from './union-find.ts';

/**
 * LSH banding: the 64 bins form {@link LSH_BANDS} bands of {@link LSH_ROWS}; two articles whose signatures agree
 * on a whole band are candidates, and a candidate joins the story when its estimated Jaccard similarity of word
 * 5-shingles reaches {@link NEAR_THRESHOLD}. A pair of similarity s is a candidate with probability
 * 1 − (1 − s²)³²: 0.996 at s = 0.42 (a copy with 10 % of its words replaced keeps ≈ 0.9⁵ of its shingles, Jaccard
 * ≈ 0.42), 0.27 at s = 0.1; the threshold then decides.
 */
export const LSH_BANDS = 32;
export const LSH_ROWS = 2;
export const NEAR_THRESHOLD = 0.2;

/** What the clustering reads: articles numbered 0..count-1 in release order. */
export interface StoryInput {
  readonly count: number;
  /** xxHash64 of each article's text, as two 32-bit halves (hi at 2i, lo at 2i+1). */
  readonly textHashes: Uint32Array;
  /** {@link SIGNATURE_SLOTS} 16-bit bins per article; meaningful only where `signed[i]` is 1. */
  readonly signatures: Uint16Array;
  readonly signed: Uint8Array;
}

/** Each article's story as the smallest article number in it, for equal texts (exact) and near duplicates. */
export interface Stories {
  readonly exact: Uint32Array;
  readonly near: Uint32Array;
}

/**
 * Clusters exact duplicates (equal text hash) and near duplicates (LSH candidates above the threshold, closed
 * transitively); every exact story lies inside one near story.
 * @example clusterStories({ count: 2, textHashes, signatures, signed }).near // Uint32Array [0, 0] for two copies
 */
export function clusterStories(input: StoryInput, threshold = NEAR_THRESHOLD): Stories {
  const { count, textHashes, signatures, signed } = input;
  const sets = new UnionFind(count);
  const byHash = new Map<number, number>(); // hi half → first article; a collision of hi halves checks lo too
  const chains = new Map<number, number[]>();
  for (let i = 0; i < count; i++) {
    const hi = textHashes[2 * i] as number;
    const first = byHash.get(hi);
    if (first === undefined) {
      byHash.set(hi, i);
      continue;
    }
    const candidates = chains.get(hi) ?? [first];
    const same = candidates.find((j) => textHashes[2 * j + 1] === textHashes[2 * i + 1]);
    if (same !== undefined) sets.union(same, i);
    else {
      candidates.push(i);
      chains.set(hi, candidates);
    }
  }
  const exact = rootsAsFirstMember(sets, count);
  for (let band = 0; band < LSH_BANDS; band++) {
    const buckets = new Map<number, number>();
    const at = band * LSH_ROWS;
    for (let i = 0; i < count; i++) {
      if (signed[i] !== 1) continue;
      const p = i * SIGNATURE_SLOTS + at;
      const key = (((signatures[p] as number) << 16) | (signatures[p + 1] as number)) >>> 0;
      const j = buckets.get(key);
      // Each article is compared with the bucket's latest member: copies that were already joined share a bucket
      // in most bands, so comparing with one member per band suffices (measured recall in BENCHMARKS.md).
      if (j !== undefined && sets.find(i) !== sets.find(j) && estimateSimilarity(signatures, i, j) >= threshold)
        sets.union(i, j);
      buckets.set(key, i);
    }
  }
  return { exact, near: rootsAsFirstMember(sets, count) };
}

/** Names each set by its smallest member (its first article in release order). */
function rootsAsFirstMember(sets: UnionFind, count: number): Uint32Array {
  const firstOfRoot = new Uint32Array(count).fill(0xffffffff);
  const out = new Uint32Array(count);
  for (let i = 0; i < count; i++) {
    const r = sets.find(i);
    if (firstOfRoot[r] === 0xffffffff) firstOfRoot[r] = i;
    out[i] = firstOfRoot[r] as number;
  }
  return out;
}
