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
import { asciiWords, wordsOf, type WordCase } from '../../words/index.ts';

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
 * Characters the segmenter never joins across (spaces, and the CJK full stop, comma and brackets), so the words
 * before one do not depend on the text after it: a word cut by the window's edge is never taken.
 */
const BREAK = /[\s、。，！？「」『』（）【】]/u;

const decoder = new TextDecoder('utf-8');

/**
 * The memo of a window, or none for an ASCII one: its words take the segmenter's plain-word path, which costs less
 * than building and hashing the window's key (ngrams "said it": 1.5% hits, 19% less CPU without the memo), while
 * other scripts go through ICU and gain from it (東京: 11% hits).
 */
function memoFor(
  bytes: Uint8Array,
  memo: Map<string, WindowWord[]> | undefined,
): Map<string, WindowWord[]> | undefined {
  return memo === undefined || isAscii(bytes) ? undefined : memo;
}

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

function lastAsciiSpace(text: string): number {
  for (let i = text.length - 1; i >= 0; i--) if (isAsciiSpace(text.charCodeAt(i))) return i;
  return -1;
}

function firstAsciiSpace(text: string): number {
  for (let i = 0; i < text.length; i++) if (isAsciiSpace(text.charCodeAt(i))) return i;
  return text.length;
}

function lastBreak(text: string): number {
  for (let i = text.length - 1; i >= 0; i--) if (BREAK.test(text[i] as string)) return i;
  return -1;
}

function firstBreak(text: string): number {
  for (let i = 0; i < text.length; i++) if (BREAK.test(text[i] as string)) return i;
  return text.length;
}

/** Where an occurrence's article lies in the shard text, in bytes. */
export interface ArticleSpan {
  readonly doc: number;
  readonly docStart: number;
  readonly docEnd: number;
}

/**
 * The first `count` words of the article text from byte `from` (fewer only at the article's end), as the
 * segmenter splits the text from `from` to the article's end. `memo` caches segmentations of equal non-ASCII windows
 * (occurrences of a phrase often share what follows); keys name the direction, so one memo serves both.
 */
export function wordsForward(
  reader: ShardReader,
  article: ArticleSpan,
  from: number,
  count: number,
  wordCase: WordCase,
  memo?: Map<string, WindowWord[]>,
): { readonly text: string; readonly words: readonly WindowWord[] } {
  for (let size = firstWindowBytes(count); ; size *= 4) {
    const end = Math.min(article.docEnd, from + size);
    const atEnd = end === article.docEnd || size >= MAX_WINDOW_BYTES;
    const bytes = readShardText(reader, article.doc, article.docStart, from, end);
    if (isAscii(bytes)) {
      const text = asciiText(bytes);
      const limit = atEnd ? text.length : lastAsciiSpace(text);
      const words: WindowWord[] = [];
      asciiWords(text, wordCase, (w) => w.end <= limit && words.push(w) < count);
      if (words.length === count || atEnd) return { text, words };
      continue;
    }
    const text = decoder.decode(end === article.docEnd ? bytes : wholeCharsEnd(bytes));
    const windowMemo = memoFor(bytes, memo);
    const key = windowMemo === undefined ? '' : `F${count}\u0000${atEnd ? 1 : 0}\u0000${text}`;
    const known = windowMemo?.get(key);
    if (known !== undefined) return { text, words: known };
    const limit = atEnd ? text.length : lastBreak(text);
    const words: WindowWord[] = [];
    for (const w of wordsOf(text, wordCase)) {
      if (w.end > limit || words.length === count) break;
      words.push(w);
    }
    if (words.length === count || atEnd) {
      windowMemo?.set(key, words);
      return { text, words };
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
  memo?: Map<string, WindowWord[]>,
): { readonly text: string; readonly words: readonly WindowWord[] } {
  for (let size = firstWindowBytes(count); ; size *= 4) {
    const start = Math.max(article.docStart, to - size);
    const atStart = start === article.docStart || size >= MAX_WINDOW_BYTES;
    const bytes = readShardText(reader, article.doc, article.docStart, start, to);
    if (isAscii(bytes)) {
      const text = asciiText(bytes);
      const limit = atStart ? 0 : firstAsciiSpace(text) + 1;
      const all: WindowWord[] = [];
      asciiWords(text, wordCase, (w) => (w.start >= limit && all.push(w), true));
      const words = all.slice(Math.max(0, all.length - count));
      if (words.length === count || atStart) return { text, words };
      continue;
    }
    const text = decoder.decode(start === article.docStart ? bytes : wholeCharsStart(bytes));
    const windowMemo = memoFor(bytes, memo);
    const key = windowMemo === undefined ? '' : `B${count}\u0000${atStart ? 1 : 0}\u0000${text}`;
    const known = windowMemo?.get(key);
    if (known !== undefined) return { text, words: known };
    const limit = atStart ? 0 : firstBreak(text) + 1;
    const all = [...wordsOf(text, wordCase)].filter((w) => w.start >= limit);
    const words = all.slice(Math.max(0, all.length - count));
    if (words.length === count || atStart) {
      windowMemo?.set(key, words);
      return { text, words };
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
