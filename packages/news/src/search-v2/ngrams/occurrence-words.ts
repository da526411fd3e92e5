/**
 * The words next to one occurrence, read through the ShardReader (both index kinds) a window at a time and
 * segmented with the one word segmenter (words/). Shared by ngrams and collocations.
 *
 * Definition (what the brute-force tests recompute on whole articles): right of an occurrence, the words of the
 * article text from the start of the phrase's last word; left, the words of the text up to the end of its first
 * word. Segmenting from there makes the phrase's own edge a boundary of the window, so a phrase that ends (or
 * begins) inside a longer word is recognised: its first word there is longer than the phrase's.
 */
import { isAscii } from 'node:buffer';
import type { ShardReader } from '../../shard/types.ts';
import { asciiWordRanges, wordsOf, type WordCase } from '../../words/index.ts';
import type { ArticleSpan, WindowCache } from './window-cache.ts';

export type { ArticleSpan } from './window-cache.ts';

/** One word of a window: UTF-16 offsets into the window text. */
export interface WindowWord {
  readonly word: string;
  readonly start: number;
  readonly end: number;
}

/**
 * Bytes of the first window for `count` words (~24 bytes a word with its spaces covers most Latin text); it grows 4×
 * while too few words are certain, up to `MAX_WINDOW_BYTES`. Segmenting is the cost per occurrence: a small window
 * first is ~3× faster than a fixed 192 bytes for one or two words.
 */
const firstWindowBytes = (count: number): number => Math.max(48, 24 * (count + 1));
const MAX_WINDOW_BYTES = 12_288;
/**
 * Characters the segmenter never joins across, on either side: the spaces and line breaks `wordsOf` cuts at, and the
 * CJK full stop, comma and brackets (UAX #29 class Other; ICU's dictionaries see only runs of CJK letters). A
 * non-ASCII window is segmented a piece between two of them at a time, each alone, with the result of segmenting it
 * whole, and a piece cut by the window's edge is never taken. Not U+FF0C (fullwidth comma, MidNum: it joins digits)
 * nor the other `\s` characters (U+202F joins words, U+FEFF is a format character).
 */
const BREAK = /[\t\n\v\f\r \u0085\u1680\u2000-\u2006\u2008-\u200a\u2028\u2029\u205f\u3000、。！？「」『』（）【】]/u;

const decoder = new TextDecoder('utf-8');

/** The article bytes [start, end) of the shard text; readers without `readText` (test doubles) via the article. */
export function readShardText(
  reader: ShardReader,
  doc: number,
  docStart: number,
  start: number,
  end: number,
): Uint8Array {
  if (reader.readText !== undefined) return reader.readText(start, end);
  return reader.documentBytes(doc).subarray(start - docStart, end - docStart);
}

/** Drops a UTF-8 character cut by the end of `bytes`. */
function wholeCharsEnd(bytes: Uint8Array): Uint8Array {
  let i = bytes.length;
  let back = 0;
  while (i > 0 && back < 4 && ((bytes[i - 1] as number) & 0xc0) === 0x80) {
    i--;
    back++;
  }
  if (i === 0) return bytes.subarray(0, 0);
  const lead = bytes[i - 1] as number;
  const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return back + 1 >= need ? bytes : bytes.subarray(0, i - 1);
}

/** Drops UTF-8 continuation bytes cut by the start of `bytes`. */
function wholeCharsStart(bytes: Uint8Array): Uint8Array {
  let i = 0;
  while (i < bytes.length && i < 3 && ((bytes[i] as number) & 0xc0) === 0x80) i++;
  return bytes.subarray(i);
}

/** ASCII bytes as a string (latin1 is ASCII there, and faster than UTF-8 decoding). */
const asciiText = (bytes: Uint8Array): string =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');

/** `BREAK` within ASCII: the white space characters of `\s` (tab to carriage return, and space). */
const isAsciiSpace = (c: number): boolean => c === 0x20 || (c >= 0x09 && c <= 0x0d);

/** Index of the first `BREAK` at or after `from`, or −1. */
function nextBreak(text: string, from: number): number {
  for (let i = from; i < text.length; i++) if (BREAK.test(text[i] as string)) return i;
  return -1;
}

/** Index of the last `BREAK` before `to`, or −1. */
function previousBreak(text: string, to: number): number {
  for (let i = to - 1; i >= 0; i--) if (BREAK.test(text[i] as string)) return i;
  return -1;
}

/**
 * The words of the piece `text[from, to)` (no `BREAK` inside), offsets into `text`. `memo` keeps each piece's
 * segmentation: syndicated copies and repeated phrases give equal pieces, and ICU segments Japanese slowly.
 */
function pieceWords(
  text: string,
  from: number,
  to: number,
  wordCase: WordCase,
  memo: Map<string, WindowWord[]> | undefined,
): readonly WindowWord[] {
  if (to <= from) return [];
  const piece = text.slice(from, to);
  const key = wordCase === 'sensitive' ? `s${piece}` : `i${piece}`;
  let words = memo?.get(key);
  if (words === undefined) {
    words = [...wordsOf(piece, wordCase)];
    memo?.set(key, words);
  }
  return from === 0 ? words : words.map((w) => ({ word: w.word, start: from + w.start, end: from + w.end }));
}

/** One ASCII word of `text[s, e)` in a window starting at `at`, as `asciiWords` builds it. */
function asciiWord(text: string, s: number, e: number, at: number, wordCase: WordCase): WindowWord {
  const raw = text.slice(s, e);
  return { word: wordCase === 'insensitive' ? raw.toLowerCase() : raw, start: s - at, end: e - at };
}

/**
 * The words `wordsForward` takes from the ASCII window `text[from, to)`: at most `count`, none cut by the window's end
 * (a word must end at or before its last space) unless `atEnd`; offsets from `from`. One rule for windows read as
 * bytes and windows of an article held whole.
 */
function asciiWindowForward(text: string, from: number, to: number, atEnd: boolean, count: number, wordCase: WordCase) {
  let limit = to;
  if (!atEnd) while (--limit >= from && !isAsciiSpace(text.charCodeAt(limit)));
  const words: WindowWord[] = [];
  asciiWordRanges(text, from, to, (s, e) => e <= limit && words.push(asciiWord(text, s, e, from, wordCase)) < count);
  return words;
}

/** The words `wordsBackward` takes from the ASCII window `text[from, to)`: the last `count`, none cut by its start. */
function asciiWindowBackward(
  text: string,
  from: number,
  to: number,
  atStart: boolean,
  count: number,
  wordCase: WordCase,
) {
  let limit = from;
  if (!atStart) {
    while (limit < to && !isAsciiSpace(text.charCodeAt(limit))) limit++;
    limit++;
  }
  const all: WindowWord[] = [];
  asciiWordRanges(text, from, to, (s, e) => (s >= limit && all.push(asciiWord(text, s, e, from, wordCase)), true));
  return all.slice(Math.max(0, all.length - count));
}

/**
 * `wordsForward` in an ASCII article held whole (`text`, from index `at`): the same windows and rules, without
 * reading each window's bytes.
 */
function asciiForward(text: string, at: number, count: number, wordCase: WordCase) {
  for (let size = firstWindowBytes(count); ; size *= 4) {
    const end = Math.min(text.length, at + size);
    const atEnd = end === text.length || size >= MAX_WINDOW_BYTES;
    const words = asciiWindowForward(text, at, end, atEnd, count, wordCase);
    if (words.length === count || atEnd) return { text: text.slice(at, end), words };
  }
}

/** `wordsBackward` in an ASCII article held whole, up to index `at`. */
function asciiBackward(text: string, at: number, count: number, wordCase: WordCase) {
  for (let size = firstWindowBytes(count); ; size *= 4) {
    const start = Math.max(0, at - size);
    const atStart = start === 0 || size >= MAX_WINDOW_BYTES;
    const words = asciiWindowBackward(text, start, at, atStart, count, wordCase);
    if (words.length === count || atStart) return { text: text.slice(start, at), words };
  }
}

/**
 * The first `count` words of the article text from byte `from` (fewer only at the article's end), as the
 * segmenter splits the text from `from` to the article's end. `cache` (one per shard) keeps what windows share.
 */
export function wordsForward(
  reader: ShardReader,
  article: ArticleSpan,
  from: number,
  count: number,
  wordCase: WordCase,
  cache?: WindowCache,
): { readonly text: string; readonly words: readonly WindowWord[] } {
  const ascii = cache?.asciiArticle(reader, article);
  if (ascii !== undefined) return asciiForward(ascii, from - article.docStart, count, wordCase);
  const memo = cache?.pieces;
  for (let size = firstWindowBytes(count); ; size *= 4) {
    const end = Math.min(article.docEnd, from + size);
    const atEnd = end === article.docEnd || size >= MAX_WINDOW_BYTES;
    const bytes = readShardText(reader, article.doc, article.docStart, from, end);
    if (isAscii(bytes)) {
      const text = asciiText(bytes);
      const words = asciiWindowForward(text, 0, text.length, atEnd, count, wordCase);
      if (words.length === count || atEnd) return { text, words };
      continue;
    }
    const text = decoder.decode(end === article.docEnd ? bytes : wholeCharsEnd(bytes));
    const words: WindowWord[] = [];
    for (let from = 0; ;) {
      const cut = nextBreak(text, from);
      if (cut < 0 && !atEnd) break; // the last piece may go on past the window
      for (const w of pieceWords(text, from, cut < 0 ? text.length : cut, wordCase, memo))
        if (words.push(w) === count) return { text, words };
      if (cut < 0) return { text, words };
      from = cut + 1;
    }
  }
}

/**
 * The last `count` words of the article text before byte `to` (fewer only at the article's start), as the
 * segmenter splits the text from the article's start to `to`.
 */
export function wordsBackward(
  reader: ShardReader,
  article: ArticleSpan,
  to: number,
  count: number,
  wordCase: WordCase,
  cache?: WindowCache,
): { readonly text: string; readonly words: readonly WindowWord[] } {
  const ascii = cache?.asciiArticle(reader, article);
  if (ascii !== undefined) return asciiBackward(ascii, to - article.docStart, count, wordCase);
  const memo = cache?.pieces;
  for (let size = firstWindowBytes(count); ; size *= 4) {
    const start = Math.max(article.docStart, to - size);
    const atStart = start === article.docStart || size >= MAX_WINDOW_BYTES;
    const bytes = readShardText(reader, article.doc, article.docStart, start, to);
    if (isAscii(bytes)) {
      const text = asciiText(bytes);
      const words = asciiWindowBackward(text, 0, text.length, atStart, count, wordCase);
      if (words.length === count || atStart) return { text, words };
      continue;
    }
    const text = decoder.decode(start === article.docStart ? bytes : wholeCharsStart(bytes));
    const words: WindowWord[] = [];
    for (let to = text.length; ;) {
      const cut = previousBreak(text, to);
      if (cut < 0 && !atStart) break; // the first piece may begin before the window
      const piece = pieceWords(text, cut + 1, to, wordCase, memo);
      for (let k = piece.length - 1; k >= 0; k--)
        if (words.push(piece[k] as WindowWord) === count) return { text, words: words.reverse() };
      if (cut < 0) return { text, words: words.reverse() };
      to = cut;
    }
  }
}

/** The phrase's edge word in one spelling: its UTF-16 length and its byte offset from the match start. */
export interface EdgeWord {
  /** Byte offset (right: of the last word's start; left: of the first word's end) from the match start. */
  readonly byteAt: number;
  readonly length: number;
}

/** The spelling's last word (right) or first word (left), or null when the spelling does not end (begin) with one. */
export function edgeWord(spelling: Uint8Array, direction: 'left' | 'right'): EdgeWord | null {
  const text = Buffer.from(spelling).toString('utf8');
  const words = [...wordsOf(text)];
  const w = direction === 'right' ? words.at(-1) : words[0];
  if (w === undefined) return null;
  if (direction === 'right')
    return w.end === text.length
      ? { byteAt: Buffer.byteLength(text.slice(0, w.start)), length: w.end - w.start }
      : null;
  return w.start === 0 ? { byteAt: Buffer.byteLength(text.slice(0, w.end)), length: w.end } : null;
}
