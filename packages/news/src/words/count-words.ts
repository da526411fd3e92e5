import { plainCore, segmentWords, wordsOf } from './segment.ts';

/**
 * Adds the count of every case-sensitive word of `text` to `counts`: the same words as `wordsOf(text)`, found
 * faster. The text is cut at ASCII spaces and line breaks (a segment never spans one: segment.ts, BREAKS); a piece
 * of ASCII only is split here by the rules below, any other piece goes to `wordsOf`. Counting every word of a
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

const add = (counts: Map<string, number>, word: string): void => {
  counts.set(word, (counts.get(word) ?? 0) + 1);
};

/** Tab, LF, VT, FF, CR, space: the ASCII members of segment.ts's BREAKS. */
const isAsciiSpace = (c: number): boolean => c === 0x20 || (c >= 0x09 && c <= 0x0d);
const isAlnum = (c: number): boolean =>
  (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39);
/** ASCII punctuation and symbols but `_` (connector punctuation): what segment.ts's EDGE strips at a piece's edges. */
const isEdge = (c: number): boolean =>
  c !== 0x5f &&
  ((c >= 0x21 && c <= 0x2f) || (c >= 0x3a && c <= 0x40) || (c >= 0x5b && c <= 0x60) || (c >= 0x7b && c <= 0x7e));
/**
 * The ASCII characters some UAX #29 rule can join to a letter or digit: `_` (ExtendNumLet), `.` and `'`
 * (MidNumLet, Single_Quote), `:` (MidLetter), `,` and `;` (MidNum), `"` (Double_Quote). Any other ASCII character
 * between letters and digits is a segment of its own, so a run of letters and digits is one word (WB5, WB8–WB10).
 */
const mayJoin = (c: number): boolean =>
  c === 0x5f || c === 0x2e || c === 0x27 || c === 0x3a || c === 0x2c || c === 0x3b || c === 0x22;

/** An ASCII piece `text[from, to)`: its letter-and-digit runs, or the segmenter's words when a joiner is inside. */
function countAsciiPiece(counts: Map<string, number>, text: string, from: number, to: number): void {
  // As segment.ts's `piece`: punctuation at the edges cannot join a word, so only the core decides.
  let a = from;
  let b = to;
  while (a < b && isEdge(text.charCodeAt(a))) a++;
  while (b > a && isEdge(text.charCodeAt(b - 1))) b--;
  for (let i = a; i < b; i++) {
    if (mayJoin(text.charCodeAt(i))) {
      countByWordsOf(counts, text, from, to);
      return;
    }
  }
  let start = -1;
  for (let i = a; i <= b; i++) {
    const word = i < b && isAlnum(text.charCodeAt(i));
    if (word && start < 0) start = i;
    else if (!word && start >= 0) {
      add(counts, text.slice(start, i));
      start = -1;
    }
  }
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
