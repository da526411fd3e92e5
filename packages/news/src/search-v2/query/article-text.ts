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

/** Every occurrence of the term in the article, by offset, under the term's rules. */
export function hitsIn(article: Buffer, probe: TermProbe): Hit[] {
  if (probe.pattern !== undefined) return patternHits(article, probe.pattern, probe.wholeWord);
  const hits: Hit[] = [];
  for (const s of probe.spellings) {
    for (let at = article.indexOf(s); at !== -1; at = article.indexOf(s, at + 1)) {
      const ok = probe.term.prefix ? startsWord(article, at) : !probe.wholeWord || isWholeWordIn(article, at, s.length);
      if (ok) hits.push({ at, length: s.length });
    }
  }
  return probe.spellings.length > 1 ? hits.sort((a, b) => a.at - b.at) : hits;
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
 * Byte offsets where each word of the article starts (words are runs of letters and digits), so an occurrence's
 * word position is the number of word starts at or before it, minus one. Decodes UTF-8 in place: decoding the
 * article to a string and mapping each match back to bytes was most of a NEAR query's time.
 */
export function wordStarts(article: Buffer): number[] {
  const starts: number[] = [];
  let inWord = false;
  const at = (i: number) => (article[i] ?? 0) & 0x3f;
  for (let i = 0; i < article.length;) {
    const b = article[i] as number;
    let cp = 0xfffd; // a stray continuation byte: not a letter (valid text has none)
    let length = 1;
    if (b < 0x80) cp = b;
    else if (b >= 0xf0) {
      cp = ((b & 0x07) << 18) | (at(i + 1) << 12) | (at(i + 2) << 6) | at(i + 3);
      length = 4;
    } else if (b >= 0xe0) {
      cp = ((b & 0x0f) << 12) | (at(i + 1) << 6) | at(i + 2);
      length = 3;
    } else if (b >= 0xc0) {
      cp = ((b & 0x1f) << 6) | at(i + 1);
      length = 2;
    }
    const word = cp <= 0x10ffff && isWordCodePoint(cp);
    if (word && !inWord) starts.push(i);
    inWord = word;
    i += length;
  }
  return starts;
}

/** Word position of byte `at`: index of the last word starting at or before it (-1 before the first word). */
export function wordIndexAt(starts: readonly number[], at: number): number {
  let lo = 0;
  let hi = starts.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((starts[mid] as number) <= at) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
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
