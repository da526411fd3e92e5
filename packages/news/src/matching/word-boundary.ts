import type { ShardReader } from '../shard/types.ts';
import { MatchingError } from './errors.ts';

/** A word character: Unicode letters and digits (general categories L and N). */
const WORD_CHAR = /^[\p{L}\p{N}]$/u;

/**
 * Scripts written without spaces between words: a whole-word rule based on neighbouring letters would reject
 * nearly every match there, so such queries are refused with whole_word rather than silently answered with ~0.
 */
const SPACELESS = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

export function assertWholeWordSupported(query: string): void {
  if (SPACELESS.test(query)) {
    throw new MatchingError('whole_word_unsupported',
      'whole_word needs words separated by spaces or punctuation; Chinese, Japanese, Thai, Lao, Khmer and Burmese text has none, ' +
      'so search this query with whole_word false');
  }
}

/** True unless `ch` (one character, or '' at an article edge) is a letter or digit. */
export function isBoundary(ch: string): boolean {
  return ch === '' || !WORD_CHAR.test(ch);
}

/** The last character of a short string ('' when empty). */
export function lastChar(s: string): string {
  return Array.from(s).at(-1) ?? '';
}

/** The first character of a string ('' when empty). */
export function firstChar(s: string): string {
  const cp = s.codePointAt(0);
  return cp === undefined ? '' : String.fromCodePoint(cp);
}

/**
 * Whether the occurrence at `rank` (whose bytes are `match`) stands as a whole word: the characters just before and
 * just after it in its article are not letters or digits (or are the article's edges). Reads a window of 4 bytes
 * on each side, which always holds the whole neighbouring character.
 */
export function isWholeWordAt(reader: ShardReader, rank: number, match: Uint8Array): boolean {
  const w = reader.window(rank, match, 4);
  const bytes = Buffer.from(w.text);
  const before = bytes.toString('utf8', 0, w.needleOffset);
  const after = bytes.toString('utf8', Math.min(bytes.length, w.needleOffset + match.length));
  return isBoundary(lastChar(before)) && isBoundary(firstChar(after));
}

/** The same rule over an article's bytes, for a match at byte offset `at` of `length` bytes. */
export function isWholeWordIn(article: Buffer, at: number, length: number): boolean {
  const before = article.toString('utf8', Math.max(0, at - 4), at);
  const after = article.toString('utf8', at + length, Math.min(article.length, at + length + 4));
  return isBoundary(lastChar(before.replace(/^\uFFFD+/, ''))) && isBoundary(firstChar(after));
}
