import { isWholeWordIn } from '../../matching/index.ts';
import type { TermNode } from './ast.ts';
import { patternMatches } from './wildcard-phrase.ts';

/** How one term is looked for inside an article: the spellings the shard holds, and the word rules that apply. */
export interface TermProbe {
  readonly term: TermNode;
  /** Case-sensitive: the term's bytes; case-insensitive: every spelling of it found in the shard. */
  readonly spellings: readonly Uint8Array[];
  /** The request's whole_word (for a prefix term, only its start must begin a word). */
  readonly wholeWord: boolean;
  /** A phrase with `*` words: the whole phrase as a pattern (`spellings` then hold its rarest literal segment). */
  readonly pattern?: RegExp;
}

/** One occurrence of a term in an article: byte offset and byte length (spellings can differ in length). */
export interface Hit {
  readonly at: number;
  readonly length: number;
}

const WORD_CHAR = /[\p{L}\p{N}]/u;

/** True when the character before byte `at` is not a letter or digit (or `at` is the article's start). */
function startsWord(article: Buffer, at: number): boolean {
  const before = article.toString('utf8', Math.max(0, at - 4), at).replace(/^\uFFFD+/, '');
  const last = Array.from(before).at(-1);
  return last === undefined || !WORD_CHAR.test(last);
}

/** Whether an occurrence of one of the probe's spellings at `at` passes the term's word rules. */
export function keepsHit(article: Buffer, probe: TermProbe, at: number, length: number): boolean {
  return probe.term.prefix ? startsWord(article, at) : !probe.wholeWord || isWholeWordIn(article, at, length);
}

/** Every occurrence of the term in the article, by offset, under the term's rules. */
export function hitsIn(article: Buffer, probe: TermProbe): Hit[] {
  if (probe.pattern !== undefined) return patternHits(article, probe.pattern, probe.wholeWord);
  const hits: Hit[] = [];
  for (const s of probe.spellings) {
    for (let at = article.indexOf(s); at !== -1; at = article.indexOf(s, at + 1)) {
      if (keepsHit(article, probe, at, s.length)) hits.push({ at, length: s.length });
    }
  }
  return probe.spellings.length > 1 ? hits.sort((a, b) => a.at - b.at) : hits;
}

/** Whether the term occurs in the article under its rules: `hitsIn(…).length > 0`, stopping at the first one. */
export function occursIn(article: Buffer, probe: TermProbe): boolean {
  if (probe.pattern !== undefined) return patternHits(article, probe.pattern, probe.wholeWord).length > 0;
  for (const s of probe.spellings) {
    for (let at = article.indexOf(s); at !== -1; at = article.indexOf(s, at + 1))
      if (keepsHit(article, probe, at, s.length)) return true;
  }
  return false;
}

/** The whole word a prefix occurrence belongs to from its start (`econom` at "economy," gives "economy"). */
export function wordAt(article: Buffer, at: number): string {
  const tail = article.toString('utf8', at, Math.min(article.length, at + 256));
  const m = /^[\p{L}\p{N}]+/u.exec(tail);
  return m === null ? '' : m[0];
}

/** Per code point: 0 not yet known, 1 letter or digit, 2 neither (filled on first sight; ASCII up front). */
const WORD_CLASS = new Uint8Array(0x110000);
function isWordCodePoint(cp: number): boolean {
  let c = WORD_CLASS[cp] as number;
  if (c === 0) WORD_CLASS[cp] = c = WORD_CHAR.test(String.fromCodePoint(cp)) ? 1 : 2;
  return c === 1;
}

/**
 * The code point at byte `i` and its byte length, packed as `cp * 8 + length` (no object per character). Decodes
 * UTF-8 in place: decoding the article to a string and mapping each match back to bytes was most of a NEAR query's
 * time. A stray continuation byte is U+FFFD, one byte (valid text has none).
 */
function charAt(article: Buffer, i: number): number {
  const b = article[i] as number;
  if (b < 0x80) return b * 8 + 1;
  const b1 = (article[i + 1] ?? 0) & 0x3f;
  if (b >= 0xf0)
    return (
      (((b & 0x07) << 18) | (b1 << 12) | (((article[i + 2] ?? 0) & 0x3f) << 6) | ((article[i + 3] ?? 0) & 0x3f)) * 8 + 4
    );
  if (b >= 0xe0) return (((b & 0x0f) << 12) | (b1 << 6) | ((article[i + 2] ?? 0) & 0x3f)) * 8 + 3;
  if (b >= 0xc0) return (((b & 0x1f) << 6) | b1) * 8 + 2;
  return 0xfffd * 8 + 1;
}

function isWordChar(packed: number): boolean {
  const cp = packed >>> 3;
  return cp <= 0x10ffff && isWordCodePoint(cp);
}

/**
 * Word starts in (from, to], counted up to `limit + 1` (enough to tell "more than limit"): the word distance from an
 * occurrence at `from` to one at `to`, as `wordIndexAt(wordStarts(article), to) - wordIndexAt(…, from)`, reading
 * only the bytes between them. `from` must be a character boundary (an occurrence's start is one).
 */
export function wordStartsBetween(article: Buffer, from: number, to: number, limit: number): number {
  if (from >= article.length) return 0;
  let n = 0;
  let c = charAt(article, from);
  let inWord = isWordChar(c);
  for (let i = from + (c & 7); i <= to && i < article.length; i += c & 7) {
    c = charAt(article, i);
    const word = isWordChar(c);
    if (word && !inWord && ++n > limit) return n;
    inWord = word;
  }
  return n;
}

/** Matches of a `*` phrase, as byte offsets and lengths, under the whole-word rule when asked. */
function patternHits(article: Buffer, pattern: RegExp, wholeWord: boolean): Hit[] {
  const text = article.toString('utf8');
  const hits: Hit[] = [];
  let chars = 0;
  let bytes = 0;
  for (const m of patternMatches(text, pattern)) {
    bytes += Buffer.byteLength(text.slice(chars, m.index));
    chars = m.index;
    const length = Buffer.byteLength(text.slice(m.index, m.index + m.length));
    if (!wholeWord || isWholeWordIn(article, bytes, length)) hits.push({ at: bytes, length });
  }
  return hits;
}
