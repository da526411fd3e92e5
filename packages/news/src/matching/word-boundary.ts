import type { Location, ShardReader } from '../shard/types.ts';
import { MatchingError } from './errors.ts';

/** A word character: Unicode letters and digits (general categories L and N). */
const WORD_CHAR = /^[\p{L}\p{N}]$/u;

/**
 * Scripts written without spaces between words: a whole-word rule based on neighbouring letters would reject
 * nearly every match there, so such queries are refused with whole_word rather than silently answered with ~0.
 */
const SPACELESS =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

export function assertWholeWordSupported(query: string): void {
  if (SPACELESS.test(query)) {
    throw new MatchingError(
      'whole_word_unsupported',
      'whole_word needs words separated by spaces or punctuation; Chinese, Japanese, Thai, Lao, Khmer and Burmese text has none, ' +
        'so search this query with whole_word false',
    );
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

/** Code point of the UTF-8 character that ends at `end` in `bytes` (-1 when none or malformed). */
function codePointBefore(bytes: Uint8Array, end: number): number {
  let s = end - 1;
  while (s > 0 && end - s < 4 && ((bytes[s] as number) & 0xc0) === 0x80) s--;
  if (s < 0) return -1;
  return decodeAt(bytes, s, end);
}

/** Code point of the UTF-8 character that starts at `at` (-1 when none or malformed). */
function codePointAt(bytes: Uint8Array, at: number): number {
  if (at >= bytes.length) return -1;
  const b = bytes[at] as number;
  const len = b < 0x80 ? 1 : b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
  return decodeAt(bytes, at, Math.min(bytes.length, at + len));
}

function decodeAt(bytes: Uint8Array, start: number, end: number): number {
  const b = bytes[start] as number;
  if (b < 0x80) return b;
  const s = Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString('utf8');
  return s.length === 0 || s.charCodeAt(0) === 0xfffd ? -1 : (s.codePointAt(0) as number);
}

/** ASCII fast path of the word-character test; other code points go through the Unicode property regex. */
function isWordCodePoint(cp: number): boolean {
  if (cp < 0) return false;
  if (cp < 0x80) return (cp >= 0x30 && cp <= 0x39) || ((cp | 0x20) >= 0x61 && (cp | 0x20) <= 0x7a);
  return WORD_CHAR.test(String.fromCodePoint(cp));
}

/**
 * Whether the occurrence at `rank` (whose bytes are `match`) stands as a whole word: the characters just before and
 * just after it in its article are not letters or digits (or are the article's edges). Reads at most 4 bytes on
 * each side, which always hold the whole neighbouring character.
 */
export function isWholeWordAt(reader: ShardReader, rank: number, match: Uint8Array): boolean {
  if (reader.readText === undefined) {
    const w = reader.window(rank, match, 4);
    const bytes = Buffer.from(w.text);
    const before = bytes.toString('utf8', 0, w.needleOffset);
    const after = bytes.toString('utf8', Math.min(bytes.length, w.needleOffset + match.length));
    return isBoundary(lastChar(before)) && isBoundary(firstChar(after));
  }
  return isWholeWordAtLocation(reader as TextReader, reader.locate(rank), match);
}

/** A reader with `readText` (both index kinds; test doubles may lack it). */
export type TextReader = ShardReader & Required<Pick<ShardReader, 'readText'>>;

/**
 * `isWholeWordAt` for a match already located, read through `readText`: callers that locate anyway test their
 * occurrences in text order, so the compressed kind decodes each text block once instead of once per rank.
 */
export function isWholeWordAtLocation(reader: TextReader, { doc, offset, pos }: Location, match: Uint8Array): boolean {
  const docStart = pos - offset;
  const docEnd = docStart + reader.documentLength(doc);
  const before = reader.readText(Math.max(docStart, pos - 4), pos);
  if (isWordCodePoint(codePointBefore(before, before.length))) return false;
  const end = pos + match.length;
  const after = reader.readText(end, Math.min(docEnd, end + 4));
  return !isWordCodePoint(codePointAt(after, 0));
}

/** The same rule over an article's bytes, for a match at byte offset `at` of `length` bytes. */
export function isWholeWordIn(article: Buffer, at: number, length: number): boolean {
  const before = article.toString('utf8', Math.max(0, at - 4), at);
  const after = article.toString('utf8', at + length, Math.min(article.length, at + length + 4));
  return isBoundary(lastChar(before.replace(/^\uFFFD+/, ''))) && isBoundary(firstChar(after));
}

/**
 * The rule of `isWholeWordAt` over an article's bytes, for a match at byte `at` of `length` bytes: the same bytes
 * around it and the same decoding, so the same answer (where `isWholeWordIn`'s string decoding may differ on
 * malformed UTF-8). For callers that read the article anyway instead of locating each occurrence.
 */
export function isWholeWordAtOffset(article: Uint8Array, at: number, length: number): boolean {
  if (isWordCodePoint(codePointBefore(article.subarray(Math.max(0, at - 4), at), Math.min(at, 4)))) return false;
  return !isWordCodePoint(codePointAt(article.subarray(at + length, Math.min(article.length, at + length + 4)), 0));
}
