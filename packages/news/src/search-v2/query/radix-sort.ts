/**
 * Sorting the text positions of a located term. `TypedArray.prototype.sort` compares: on a term's positions, in
 * suffix-array order and so unpredictable, its branch mispredictions made it ~40–130 ns per position on the real
 * corpora (most of a rare AND's CPU once its terms were located). A least-significant-digit radix sort does no
 * comparison: a counting pass and a scattering pass per digit of the largest position (two for a text under 16 MiB).
 */

/** Below this many values the comparison sort was faster (random positions < 12 M: 1,024 of them 45 ns each against
 * the radix sort's 90, its counters dominating; 4,096 of them 47 against 21). */
const RADIX_MIN = 2048;

/** The widest digit: 4,096 counters a pass (a text of up to 16 MiB in two passes). */
const DIGIT_BITS_MAX = 12;

/**
 * `values` in ascending order, every value < `bound` (≤ 2^32): sorted in place, or a new array holding the result.
 *
 * @example sortPositions(Uint32Array.of(70_000, 3, 256), 70_001) // Uint32Array [3, 256, 70000]
 */
export function sortPositions(values: Uint32Array, bound: number): Uint32Array {
  if (values.length < RADIX_MIN) return values.sort();
  const bits = bound <= 1 ? 1 : 32 - Math.clz32(bound - 1);
  const passes = Math.ceil(bits / DIGIT_BITS_MAX);
  const width = Math.ceil(bits / passes);
  const mask = 2 ** width - 1;
  let from: Uint32Array = values;
  let to: Uint32Array = new Uint32Array(values.length);
  const counts = new Uint32Array(mask + 1);
  for (let shift = 0; shift < bits; shift += width) {
    counts.fill(0);
    for (let i = 0; i < from.length; i++) {
      const d = ((from[i] as number) >>> shift) & mask;
      counts[d] = (counts[d] as number) + 1;
    }
    let sum = 0;
    for (let d = 0; d <= mask; d++) {
      const c = counts[d] as number;
      counts[d] = sum;
      sum += c;
    }
    for (let i = 0; i < from.length; i++) {
      const v = from[i] as number;
      const d = (v >>> shift) & mask;
      const at = counts[d] as number;
      to[at] = v;
      counts[d] = at + 1;
    }
    const swap = from;
    from = to;
    to = swap;
  }
  return from;
}
