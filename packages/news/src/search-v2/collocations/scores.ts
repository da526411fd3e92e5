/**
 * Association scores of a collocate (formulas in search-v2/DESIGN.md, "Collocations"). f_xy: the collocate's
 * occurrences in the windows; f_x: the node's occurrences; f_y: the collocate's occurrences in the subcorpus;
 * n: the subcorpus's words.
 */
export interface Frequencies {
  readonly fxy: number;
  readonly fx: number;
  readonly fy: number;
  readonly n: number;
}

export interface Scores {
  readonly log_dice: number;
  readonly mi: number;
  readonly log_likelihood: number;
}

/** a·ln a, 0 for a ≤ 0 (a cell that a window count larger than its margin would make negative). */
const xlx = (a: number): number => (a > 0 ? a * Math.log(a) : 0);

/**
 * @example scoresOf({ fxy: 10, fx: 100, fy: 50, n: 1e6 }).log_dice // 14 + log2(20 / 150) ≈ 11.09
 */
export function scoresOf({ fxy, fx, fy, n }: Frequencies): Scores {
  const logDice = 14 + Math.log2((2 * fxy) / (fx + fy));
  const mi = Math.log2((fxy * n) / (fx * fy));
  const ll =
    2 *
    (xlx(fxy) +
      xlx(fx - fxy) +
      xlx(fy - fxy) +
      xlx(n - fx - fy + fxy) -
      xlx(fx) -
      xlx(fy) -
      xlx(n - fx) -
      xlx(n - fy) +
      xlx(n));
  const finite = (v: number): number => (Number.isFinite(v) ? v : 0);
  return { log_dice: finite(logDice), mi: finite(mi), log_likelihood: finite(ll) };
}
