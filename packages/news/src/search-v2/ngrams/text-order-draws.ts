/**
 * A sampled shard's draws taken in text order (ngrams): draw i picks the occurrence at index i of the shard's
 * occurrences by position, instead of the rank at index i of its intervals. Both are uniform draws with replacement,
 * seeded alike; text order lets the compressed kind find its draws by scanning the text it decodes for their windows
 * anyway, where ranks cost a `locate` (~32 LF steps) each. search-v2/DESIGN.md, "Word continuations".
 */
import type { VariantInterval } from '../../matching/index.ts';
import type { ShardReader } from '../../shard/index.ts';

/**
 * Whether a shard of `textBytes` is sampled in text order: when its text is at most `bytesPerDraw` a draw (reading
 * all of it then costs about what the windows of the draws decode anyway). The rule does not depend on the index
 * kind nor on how the occurrences are found, so every kind and path draws the same sample.
 */
export const sampledInTextOrder = (textBytes: number, sampleSize: number, bytesPerDraw: number | undefined): boolean =>
  bytesPerDraw !== undefined && textBytes <= sampleSize * bytesPerDraw;

/**
 * The rank and spelling of each draw (indices into text order, ascending), by locating every candidate rank and
 * sorting them by position: the way without reading the text (the SA kind's pointers, or a reference for tests).
 * @example ranksOfTextDraws(reader, intervals, [0, 0, 7]) // [{ rank, spelling }, …] in text order
 */
export function ranksOfTextDraws(
  reader: ShardReader,
  intervals: readonly VariantInterval[],
  draws: readonly number[],
): { rank: number; spelling: Uint8Array }[] {
  const total = intervals.reduce((n, iv) => n + iv.hi - iv.lo, 0);
  const pos = new Float64Array(total);
  const rank = new Float64Array(total);
  const spelling = new Uint16Array(total);
  let at = 0;
  for (const [k, iv] of intervals.entries()) {
    reader.positionsInto(iv.lo, iv.hi, pos, at);
    for (let r = iv.lo; r < iv.hi; r++, at++) {
      rank[at] = r;
      spelling[at] = k;
    }
  }
  const order = Uint32Array.from({ length: total }, (_, i) => i).sort(
    (a, b) => (pos[a] as number) - (pos[b] as number),
  );
  return draws.map((d) => {
    const i = order[d] as number;
    return { rank: rank[i] as number, spelling: (intervals[spelling[i] as number] as VariantInterval).bytes };
  });
}
