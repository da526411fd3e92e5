import { asciiWordRanges } from './ascii-words.ts';
import { plainCore, segmentWords, wordsOf } from './segment.ts';

/**
 * Adds the count of every case-sensitive word of `text` to `counts`: the same words as `wordsOf(text)`, found
 * faster. The text is cut at ASCII spaces and line breaks (a segment never spans one: segment.ts, BREAKS); a piece
 * of ASCII only is split by `asciiWordRanges` (UAX #29's ASCII rules), any other piece by segment.ts's plain-word test
 * or the segmenter. Counting every word of a
 * release through `wordsOf` cost more CPU than the suffix sort (BENCHMARKS.md, "Build CPU per stage"): a generator
 * step, a span object and three regular expressions per word. count-words.test.ts checks the counts equal
 * `wordsOf`'s on random text and on the real corpora.
 * @example const c = new Map<string, number>(); countWords(c, 'Oil, oil and gas-oil.'); // Oil 1, oil 2, and 1, gas 1
 */
export function countWords(counts: Map<string, number>, text: string): void {
  const n = text.length;
  let from = 0;
  while (from < n) {
    while (from < n && isAsciiSpace(text.charCodeAt(from))) from++;
    let to = from;
    let ascii = true;
    let otherBreak = false;
    for (; to < n; to++) {
      const c = text.charCodeAt(to);
      if (c < 0x80) {
        if (isAsciiSpace(c)) break;
      } else {
        ascii = false;
        otherBreak ||= isOtherBreak(c);
      }
    }
    if (to > from) {
      if (ascii) countAsciiPiece(counts, text, from, to);
      // A space other than ASCII inside: wordsOf cuts the piece there first.
      else if (otherBreak) countByWordsOf(counts, text, from, to);
      else countOtherPiece(counts, text, from, to);
    }
    from = to;
  }
}

/** Counts `word` once; true, so it serves as a visitor that never stops. */
const add = (counts: Map<string, number>, word: string): true => {
  counts.set(word, (counts.get(word) ?? 0) + 1);
  return true;
};

/** Tab, LF, VT, FF, CR, space: the ASCII members of segment.ts's BREAKS. */
const isAsciiSpace = (c: number): boolean => c === 0x20 || (c >= 0x09 && c <= 0x0d);

/** An ASCII piece `text[from, to)`: its words by UAX #29's ASCII rules, without a span object per word. */
function countAsciiPiece(counts: Map<string, number>, text: string, from: number, to: number): void {
  asciiWordRanges(text, from, to, (start, end) => add(counts, text.slice(start, end)));
}

/** A piece with other characters than ASCII: segment.ts's plain-word test, else `wordsOf`. */
function countOtherPiece(counts: Map<string, number>, text: string, from: number, to: number): void {
  const core = plainCore(text, from, to);
  if (core === undefined) segmentWords(text, from, to, (w) => add(counts, w));
  else if (core !== '') add(counts, core.word);
}

/** segment.ts's BREAKS but the ASCII ones (which countWords cuts at). */
const isOtherBreak = (c: number): boolean =>
  c === 0x85 ||
  c === 0x1680 ||
  (c >= 0x2000 && c <= 0x200a && c !== 0x2007) ||
  c === 0x2028 ||
  c === 0x2029 ||
  c === 0x205f ||
  c === 0x3000;

function countByWordsOf(counts: Map<string, number>, text: string, from: number, to: number): void {
  for (const w of wordsOf(text.slice(from, to))) add(counts, w.word);
}
