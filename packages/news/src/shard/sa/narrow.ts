import type { RankInterval } from '../types.ts';

/**
 * Byte `depth` of the suffix at `rank`, or -1 where the suffix ends before it (it sorts first). A reader makes one
 * at its start: a function made per `narrow` call was most of a call's cost (a prefix's expansion narrows once per
 * branch, thousands of times over 83 shards).
 */
export type SuffixByte = (rank: number, depth: number) => number;

/**
 * The sub-interval of `iv` whose byte at `depth` equals `byte`. Two binary searches inside `iv`; both suffix-array
 * readers narrow this way and differ only in how they read a byte.
 */
export function narrowInterval(iv: RankInterval, depth: number, byte: number, at: SuffixByte): RankInterval {
  let a = iv.lo;
  let b = iv.hi;
  while (a < b) {
    const m = (a + b) >>> 1;
    if (at(m, depth) < byte) a = m + 1;
    else b = m;
  }
  const lo = a;
  b = iv.hi;
  while (a < b) {
    const m = (a + b) >>> 1;
    if (at(m, depth) <= byte) a = m + 1;
    else b = m;
  }
  return { lo, hi: a };
}
