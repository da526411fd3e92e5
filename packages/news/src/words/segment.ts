import { caseFold } from 'unicode-case-folding';
import { asciiWords, isAsciiText } from './ascii-words.ts';

/**
 * Words as the analyses count them (issue 28): Unicode word segments (UAX #29, `Intl.Segmenter`) that contain a
 * letter or digit. Punctuation, spaces and symbols are not words. Japanese, Chinese and Thai have no spaces between
 * words; ICU's segmenter splits them with its dictionaries (Node ships full ICU), so 原油価格が上昇 gives 原油 · 価格 ·
 * が · 上昇. The segmenter is locale-independent here ('und'): one corpus holds many languages and the counts must not
 * depend on a guess of each article's language.
 */
export interface WordSpan {
  /** The word as written, or case-folded when asked. */
  readonly word: string;
  /** UTF-16 offsets of the word in the text. */
  readonly start: number;
  readonly end: number;
}

const HAS_LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const segmenter = new Intl.Segmenter('und', { granularity: 'word' });

/** How words are compared: as written, or under full Unicode case folding (the `case: insensitive` option). */
export type WordCase = 'sensitive' | 'insensitive';

/** Full Unicode case folding of one word (CaseFolding.txt C + F: `Straße` → `strasse`), as matching uses. */
export function foldWord(word: string): string {
  return caseFold(word);
}

/**
 * Where segments never join: spaces of UAX #29's WSegSpace and line breaks (CR, LF, Newline). A segment never spans
 * one, so the text can be cut there and each piece segmented alone with the same result. NO-BREAK SPACE is left
 * out for simplicity and U+202F on purpose (it is ExtendNumLet: it joins words).
 */
const BREAKS = /[\t\n\v\f\r \u0085\u1680\u2000-\u2006\u2008-\u200a\u2028\u2029\u205f\u3000]+/g;
/**
 * A piece that is one word as it stands: a letter or ASCII/Arabic-Indic digit, then letters, those digits and
 * combining marks, in scripts whose letters UAX #29 treats alike (ALetter: Latin, Greek, Cyrillic, Arabic, Armenian,
 * Georgian). No rule of UAX #29 breaks inside such a run. Hebrew (its quote rules), Katakana, the dictionary scripts
 * (Han, Hiragana, Thai…), connector punctuation and format characters (soft hyphen, ZWJ) go to the segmenter.
 */
const WORD_LETTER =
  '[[\\p{L}]&&[\\p{sc=Latin}\\p{sc=Greek}\\p{sc=Cyrillic}\\p{sc=Arabic}\\p{sc=Armenian}\\p{sc=Georgian}]]';
const WORD_DIGIT = '[0-9\\u0660-\\u0669\\u06f0-\\u06f9]';
const PLAIN_WORD = new RegExp(`^(?:${WORD_LETTER}|${WORD_DIGIT})(?:${WORD_LETTER}|${WORD_DIGIT}|\\p{M})*$`, 'v');
/**
 * Punctuation and symbols at a piece's edges (`"`, `(`, `,`, `.`, `?`, `»`…): next to a break on one side they
 * cannot join a word (UAX #29's mid-word rules need a letter or digit on both sides). Connector punctuation
 * (ExtendNumLet) joins and emoji skin tones are Extend: both stay.
 */
// A RegExp object rather than a literal: the `v` flag (set difference) is newer than the TypeScript target.
const EDGE = new RegExp('[[\\p{P}\\p{S}]--[\\p{Pc}\\p{Emoji_Modifier}]]', 'v');

/**
 * The words of `text`, in order, with their offsets: the segments of `Intl.Segmenter` that hold a letter or digit.
 * Most pieces between spaces are a plain word with punctuation around it and take a regular-expression test; only
 * the others are segmented (the segmenter runs at 1–3 MB/s, which made counting every word of a release slow).
 * Pure-ASCII text takes `asciiWords`, a scan of UAX #29's ASCII rules (no regular expression, no ICU).
 * segment.test.ts checks the result equals the segmenter's on random text and on the real corpora.
 * @example [...wordsOf('Oil prices rose 3%.', 'insensitive')].map((w) => w.word) // ['oil', 'prices', 'rose', '3']
 */
export function* wordsOf(text: string, wordCase: WordCase = 'sensitive'): Generator<WordSpan> {
  if (isAsciiText(text)) {
    const words: WordSpan[] = [];
    asciiWords(text, wordCase, (w) => (words.push(w), true));
    yield* words;
    return;
  }
  const word = (w: string, start: number): WordSpan => ({
    word: wordCase === 'insensitive' ? foldWord(w) : w,
    start,
    end: start + w.length,
  });
  let from = 0;
  BREAKS.lastIndex = 0;
  for (;;) {
    const gap = BREAKS.exec(text);
    const to = gap === null ? text.length : gap.index;
    if (to > from) yield* piece(text, from, to, word);
    if (gap === null) return;
    from = gap.index + gap[0].length;
  }
}

function* piece(
  text: string,
  from: number,
  to: number,
  word: (w: string, start: number) => WordSpan,
): Generator<WordSpan> {
  const core = plainCore(text, from, to);
  if (core === '') return;
  if (core !== undefined) {
    yield word(core.word, core.start);
    return;
  }
  yield* segmentRun(text, from, to, word);
}

/**
 * The one word of the piece `text[from, to)` (no break inside) when it is a plain word with punctuation around it,
 * '' when it holds no word, undefined when the segmenter must split it.
 */
export function plainCore(text: string, from: number, to: number): { word: string; start: number } | '' | undefined {
  let a = from;
  let b = to;
  while (a < b && EDGE.test(charAt(text, a))) a += charAt(text, a).length;
  while (b > a && EDGE.test(charBefore(text, b))) b -= charBefore(text, b).length;
  if (a === b) return '';
  const core = text.slice(a, b);
  return PLAIN_WORD.test(core) ? { word: core, start: a } : undefined;
}

/**
 * ICU segments of `text[from, to)` in windows of at most `WINDOW` units: V8's segment iterator slows down
 * superlinearly on long strings (100,000 characters take 0.5 s, 300,000 take 26 s, a 1 MB article hours), and a
 * Japanese article has no spaces to cut at. A window's last two segments may continue past its end, so they are
 * segmented again at the start of the next window, which begins at a boundary of this one. UAX #29's rules look a
 * few characters around a boundary, so this equals segmenting the whole run; ICU's dictionaries (Japanese, Thai)
 * see one window at a time, which can place a boundary differently within a few characters of a cut.
 */
const WINDOW = 4096;

function* segmentRun(
  text: string,
  from: number,
  to: number,
  word: (w: string, start: number) => WordSpan,
): Generator<WordSpan> {
  const out: WordSpan[] = [];
  segmentWords(text, from, to, (w, start) => out.push(word(w, start)));
  yield* out;
}

/**
 * Calls `emit` with each word of the piece `text[from, to)` (no break inside) as the segmenter splits it, in
 * windows (above); a callback, not a generator, for counting (count-words.ts).
 */
export function segmentWords(text: string, from: number, to: number, emit: (w: string, start: number) => void): void {
  for (let a = from; a < to;) {
    const b = Math.min(to, a + WINDOW);
    const segments = [...segmenter.segment(text.slice(a, b))];
    const keep = b === to ? segments.length : Math.max(1, segments.length - 2);
    for (let k = 0; k < keep; k++) {
      const s = segments[k] as Intl.SegmentData;
      if (HAS_LETTER_OR_DIGIT.test(s.segment)) emit(s.segment, a + s.index);
    }
    if (b === to) return;
    a += segments[keep]?.index ?? b - a;
  }
}

/** The code point at `i` as a string (one or two UTF-16 units). */
function charAt(text: string, i: number): string {
  const c = text.codePointAt(i) as number;
  return c > 0xffff ? text.slice(i, i + 2) : (text[i] as string);
}

/** The code point ending at `i`. */
function charBefore(text: string, i: number): string {
  const c = text.charCodeAt(i - 1);
  return c >= 0xdc00 && c <= 0xdfff && i >= 2 ? text.slice(i - 2, i) : (text[i - 1] as string);
}

/** Just the words of `text`, in order. */
export function wordList(text: string, wordCase: WordCase = 'sensitive'): string[] {
  const out: string[] = [];
  for (const w of wordsOf(text, wordCase)) out.push(w.word);
  return out;
}
