import type { RankInterval } from '../types.ts';

/**
 * The sub-interval of `iv` whose byte at the narrowing depth equals `byte`, given `at(rank)`: that byte of the
 * rank's suffix, or -1 where the suffix ends before it (it sorts first). Two binary searches inside `iv`; both
 * suffix-array readers narrow this way and differ only in how they read a byte.
 */
export function narrowInterval(iv: RankInterval, byte: number, at: (rank: number) => number): RankInterval {
  let a = iv.lo;
  let b = iv.hi;
  while (a < b) {
    const m = (a + b) >>> 1;
    if (at(m) < byte) a = m + 1;
    else b = m;
  }
  const lo = a;
  b = iv.hi;
  while (a < b) {
    const m = (a + b) >>> 1;
    if (at(m) <= byte) a = m + 1;
    else b = m;
  }
  return { lo, hi: a };
}
