/**
 * A shard's occurrences found by reading its text instead of locating each rank: every article once (a view, no
 * copy), `indexOf` per spelling. On the compressed kind a `locate` is ~32 LF steps (~5 µs), while reading the text
 * costs the block decodes that the windows of dense occurrences pay anyway (nearly every block holds one) plus a
 * search at memory speed: ngrams "said it" (10,053 occurrences, one per 1.7 KB of the English shards) located its
 * ranks in about half of its CPU time (BENCHMARKS.md, "ngrams without locate").
 */
import { isAscii } from 'node:buffer';
import type { ShardHandle } from '../../release/types.ts';
import type { VariantInterval } from '../../matching/index.ts';
import { ShardFormatError } from '../../shard/index.ts';
import type { WorkBudget } from '../../work-budget/index.ts';
import type { ArticleSpan } from './window-cache.ts';

/**
 * Estimated costs in ns on warm shards (real corpora, ngrams "said it", "prices" and 東京): a `locate` (SA: one
 * pointer read; compressed: the LF walk) against reading a text byte (SA: nothing; compressed: its share of a block
 * decode, ~1 GB/s of CPU) and searching it once per spelling. `blockBytes` is the compressed kind's text block (the
 * builder's default `textBlockBytes`). Only speed depends on them: both ways find the same occurrences.
 */
export const SCAN_COSTS = {
  locate: { sa: 200, compressed: 5_000 },
  readByte: { sa: 0, compressed: 1 },
  scanByte: 0.5,
  blockBytes: 128 * 1024,
} as const;

/**
 * Whether reading the shard's `bytes` of text once per spelling is estimated cheaper than locating `candidates`.
 * Locating does not spare the reading: each occurrence's window then decodes its block, and `candidates` spread over
 * the shard's blocks leave 1 − (1 − 1/blocks)^candidates of them decoded (東京: ~100 occurrences in the 9 blocks of
 * a Japanese month touch them all, so the scan costs only its search).
 * @example scanIsCheaper('compressed', 10_000, 17_000_000, 1) // true (1.7 KB of text an occurrence)
 */
export function scanIsCheaper(
  kind: 'sa' | 'compressed',
  candidates: number,
  bytes: number,
  spellings: number,
): boolean {
  const blocks = Math.max(1, Math.ceil(bytes / SCAN_COSTS.blockBytes));
  const decodedByWindows = 1 - (1 - 1 / blocks) ** candidates;
  const scan = bytes * (SCAN_COSTS.readByte[kind] + spellings * SCAN_COSTS.scanByte);
  const locate = candidates * SCAN_COSTS.locate[kind] + bytes * decodedByWindows * SCAN_COSTS.readByte[kind];
  return scan < locate;
}

/** An occurrence found in the text: its spelling, absolute position and article (the rank is not known). */
export interface ScannedOccurrence {
  readonly rank: undefined;
  readonly spelling: Uint8Array;
  readonly pos: number;
  readonly article: ArticleSpan;
}

/**
 * Text bytes of the articles handed over at a time: their windows are read right after, while the compressed kind
 * still caches their blocks (8 of 128 KiB). Scanning a whole shard first decoded its blocks twice when it had more.
 */
const SLICE_BYTES = 64 * 1024;

/**
 * Every occurrence of the intervals' spellings in the shard's articles, in text order, a slice of articles at a
 * time; with `draws` (indices into that order, ascending, repeats allowed) only the drawn ones, each as many times as
 * it is drawn. Spellings are UTF-8 and never hold the 0xFF separator, so no match crosses an article's end and the
 * intervals hold exactly these matches: a count other than `candidates` means the index and the text disagree (a
 * damaged shard, `ShardFormatError` after the last slice).
 * @example for await (const slice of scanOccurrences(shard, match.intervals, 10_053, work)) visit(slice);
 */
export async function* scanOccurrences(
  shard: ShardHandle,
  intervals: readonly VariantInterval[],
  candidates: number,
  work: WorkBudget,
  draws?: readonly number[],
): AsyncGenerator<ScannedOccurrence[]> {
  const reader = shard.reader;
  // Searched as latin1 strings (a character a byte, so offsets are byte offsets and matches byte-exact): a string's
  // indexOf costs less a call than a Buffer's, and frequent words call it once a match ('the' on 9.3 MB: 12 -> 6 ms).
  const spellings = intervals.map((iv) =>
    Buffer.from(iv.bytes.buffer, iv.bytes.byteOffset, iv.bytes.byteLength).toString('latin1'),
  );
  if (spellings.some((spelling) => spelling.length === 0))
    throw new RangeError('scanOccurrences needs non-empty spellings');
  let found = 0;
  let nextDraw = 0;
  let slice: ScannedOccurrence[] = [];
  let sliceBytes = 0;
  let doc = 0;
  let article: ScannedOccurrence['article'] | undefined;
  let bytes: Buffer = Buffer.alloc(0);
  let text = '';
  /** The occurrence at `at` of the current article: the next in text order. */
  const take = (at: number, k: number): void => {
    let copies = 1;
    if (draws !== undefined) for (copies = 0; draws[nextDraw] === found; nextDraw++) copies++;
    found++;
    if (copies === 0) return;
    if (article === undefined) {
      const docStart = reader.documentStart(doc);
      // the string searched serves the windows too (WindowCache), where they converted the article again
      article = { doc, docStart, docEnd: docStart + bytes.length, ascii: isAscii(bytes) ? text : null };
    }
    const o: ScannedOccurrence = {
      rank: undefined,
      spelling: (intervals[k] as VariantInterval).bytes,
      pos: article.docStart + at,
      article,
    };
    for (let c = 0; c < copies; c++) slice.push(o);
  };
  for (; doc < reader.stats.docCount; doc++) {
    bytes = reader.documentView(doc);
    text = bytes.toString('latin1');
    article = undefined;
    if (spellings.length === 1) {
      const needle = spellings[0] as string;
      for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) take(at, 0);
    } else {
      // Several spellings: taken by position (they never share one: their intervals are disjoint).
      const hits: (readonly [number, number])[] = [];
      for (const [k, needle] of spellings.entries())
        for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) hits.push([at, k]);
      hits.sort((a, b) => a[0] - b[0]);
      for (const [at, k] of hits) take(at, k);
    }
    sliceBytes += text.length;
    if (sliceBytes >= SLICE_BYTES || doc === reader.stats.docCount - 1) {
      if (slice.length > 0) yield slice;
      slice = [];
      sliceBytes = 0;
      if (work.due()) await work.pause();
    }
  }
  if (found !== candidates)
    throw new ShardFormatError(
      shard.shardId,
      `the text holds ${found} occurrences of the query where the index has ${candidates}`,
    );
}
