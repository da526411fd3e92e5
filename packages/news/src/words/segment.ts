import { caseFold } from 'unicode-case-folding';

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
 * The words of `text`, in order, with their offsets.
 * @example [...wordsOf('Oil prices rose 3%.', 'insensitive')].map((w) => w.word) // ['oil', 'prices', 'rose', '3']
 */
export function* wordsOf(text: string, wordCase: WordCase = 'sensitive'): Generator<WordSpan> {
  for (const s of segmenter.segment(text)) {
    if (!HAS_LETTER_OR_DIGIT.test(s.segment)) continue;
    yield { word: wordCase === 'insensitive' ? foldWord(s.segment) : s.segment, start: s.index, end: s.index + s.segment.length };
  }
}

/** Just the words of `text`, in order. */
export function wordList(text: string, wordCase: WordCase = 'sensitive'): string[] {
  const out: string[] = [];
  for (const w of wordsOf(text, wordCase)) out.push(w.word);
  return out;
}
