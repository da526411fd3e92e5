/**
 * A sampled shard's draws taken in text order (ngrams): draw i picks the occurrence at index i of the shard's
 * occurrences by position, instead of the rank at index i of its intervals. Both are uniform draws with replacement,
 * seeded alike; text order lets the compressed kind find its draws by scanning the text it decodes for their windows
 * anyway, where ranks cost a `locate` (~32 LF steps) each. search-v2/DESIGN.md, "Word continuations".
 */
import { ranksIn, type VariantInterval } from '../../matching/index.ts';
import type { ShardReader } from '../../shard/index.ts';
import { SCAN_COSTS, type ScannedOccurrence } from './text-scan.ts';

/**
 * Whether a shard of `textBytes` is sampled in text order: when its text is at most `bytesPerDraw` a draw (reading
 * all of it then costs about what the windows of the draws decode anyway). The rule does not depend on the index
 * kind nor on how the occurrences are found, so every kind and path draws the same sample.
 */
export const sampledInTextOrder = (textBytes: number, sampleSize: number, bytesPerDraw: number | undefined): boolean =>
  bytesPerDraw !== undefined && textBytes <= sampleSize * bytesPerDraw;

/**
 * Estimated ns to find one candidate's position without reading the text (`positionsInto`: the SA kind copies a
 * pointer, the compressed kind walks ~32 LF steps), against `SCAN_COSTS`' reading and searching of every text byte.
 */
const POSITION_NS = { sa: 20, compressed: 5_000 } as const;

/** Whether the draws are cheaper found by scanning the text than by positioning every candidate. */
export function textDrawsScanIsCheaper(
  kind: 'sa' | 'compressed',
  candidates: number,
  bytes: number,
  spellings: number,
): boolean {
  return bytes * (SCAN_COSTS.readByte[kind] + spellings * SCAN_COSTS.scanByte) < candidates * POSITION_NS[kind];
}

/**
 * The drawn occurrences (`draws`: indices into text order, ascending) found without reading the text: every
 * candidate's position (`positionsInto`), sorted, each keyed as position × spellings + spelling so one numeric sort
 * orders both; then each draw's article by walking the articles forward. The SA kind's way, and the reference for
 * tests of the scan.
 * @example positionTextDraws(reader, intervals, [0, 0, 7]) // [{ pos, spelling, article }, …] in text order
 */
export function positionTextDraws(
  reader: ShardReader,
  intervals: readonly VariantInterval[],
  draws: readonly number[],
): ScannedOccurrence[] {
  const total = ranksIn(intervals);
  const m = intervals.length;
  const keys = new Float64Array(total);
  let at = 0;
  for (const [k, iv] of intervals.entries()) {
    reader.positionsInto(iv.lo, iv.hi, keys, at);
    if (m > 1) for (let i = at; i < at + iv.hi - iv.lo; i++) keys[i] = (keys[i] as number) * m + k;
    at += iv.hi - iv.lo;
  }
  keys.sort();
  const out: ScannedOccurrence[] = [];
  let doc = 0;
  let article: ScannedOccurrence['article'] | undefined;
  for (const d of draws) {
    const key = keys[d] as number;
    const k = key % m;
    const pos = (key - k) / m;
    while (doc + 1 < reader.stats.docCount && reader.documentStart(doc + 1) <= pos) doc++;
    if (article?.doc !== doc) {
      const docStart = reader.documentStart(doc);
      article = { doc, docStart, docEnd: docStart + reader.documentLength(doc) };
    }
    out.push({ rank: undefined, spelling: (intervals[k] as VariantInterval).bytes, pos, article });
  }
  return out;
}
