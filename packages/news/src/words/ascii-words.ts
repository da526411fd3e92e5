import type { WordCase, WordSpan } from './segment.ts';

/**
 * UAX #29's word rules restricted to ASCII, as a scan over char codes: the words of a pure-ASCII text without
 * regular expressions or ICU (most windows the analyses segment are ASCII; the general path costs ~3× more there).
 * ascii-words.test.ts checks it equals `Intl.Segmenter` on random ASCII text rich in the characters the rules name.
 *
 * Classes (WordBreakProperty.txt): letters A–Z a–z (ALetter), digits (Numeric), `:` (MidLetter), `.` and `'`
 * (MidNumLet), `,` and `;` (MidNum), `_` (ExtendNumLet); everything else breaks on both sides. Rules used: a
 * letter, digit or `_` joins the letter, digit or `_` before it (WB5, WB8–10, WB13a/b); a MidLetter or MidNumLet
 * between two letters joins them (WB6/7), a MidNum or MidNumLet between two digits joins them (WB11/12). A segment
 * that holds a letter or digit is a word; a run of `_` alone is not.
 */
const OTHER = 0;
const LETTER = 1;
const DIGIT = 2;
const UNDERSCORE = 3;
const MID_LETTER = 4;
const MID_NUM_LET = 5;
const MID_NUM = 6;

const CLASS = new Uint8Array(128);
for (let c = 0x41; c <= 0x5a; c++) CLASS[c] = LETTER;
for (let c = 0x61; c <= 0x7a; c++) CLASS[c] = LETTER;
for (let c = 0x30; c <= 0x39; c++) CLASS[c] = DIGIT;
CLASS[0x5f] = UNDERSCORE;
CLASS[0x3a] = MID_LETTER;
CLASS[0x2e] = MID_NUM_LET;
CLASS[0x27] = MID_NUM_LET;
CLASS[0x2c] = MID_NUM;
CLASS[0x3b] = MID_NUM;

/** Whether every UTF-16 unit of `text` is ASCII (the precondition of `asciiWords`). */
export function isAsciiText(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}

const classAt = (text: string, i: number, to: number): number =>
  i < to ? (CLASS[text.charCodeAt(i)] as number) : OTHER;

/**
 * The words of `text[from, to)`, all ASCII (see `isAsciiText`), in order, as `wordsOf` would give them for that
 * slice: calls `visit(start, end)` per word and stops when it returns false. Shared by `asciiWords` and the build's
 * `countWords`, so the ASCII rules live here only.
 */
export function asciiWordRanges(
  text: string,
  from: number,
  to: number,
  visit: (start: number, end: number) => boolean,
): void {
  let i = from;
  while (i < to) {
    const first = classAt(text, i, to);
    if (first !== LETTER && first !== DIGIT && first !== UNDERSCORE) {
      i++;
      continue;
    }
    const start = i;
    let hasWordChar = first !== UNDERSCORE;
    let prev = first;
    i++;
    for (; i < to; i++) {
      const c = classAt(text, i, to);
      if (c === LETTER || c === DIGIT || c === UNDERSCORE) {
        if (c !== UNDERSCORE) hasWordChar = true;
        prev = c;
        continue;
      }
      const next = classAt(text, i + 1, to);
      const joinsLetters = prev === LETTER && next === LETTER && (c === MID_LETTER || c === MID_NUM_LET);
      const joinsDigits = prev === DIGIT && next === DIGIT && (c === MID_NUM || c === MID_NUM_LET);
      if (!joinsLetters && !joinsDigits) break;
      i++; // the mid character; the loop's i++ steps past the letter or digit after it
    }
    if (hasWordChar && !visit(start, i)) return;
  }
}

/**
 * The words of an ASCII `text` (see `isAsciiText`), in order, as `wordsOf` gives them; ASCII case folding is
 * lower-casing. Calls `visit` per word and stops when it returns false.
 * @example asciiWords("It's 3.5%", 'sensitive', (w) => (out.push(w.word), true)) // It's, 3.5
 */
export function asciiWords(text: string, wordCase: WordCase, visit: (w: WordSpan) => boolean): void {
  asciiWordRanges(text, 0, text.length, (start, end) => {
    const raw = text.slice(start, end);
    return visit({ word: wordCase === 'insensitive' ? raw.toLowerCase() : raw, start, end });
  });
}
