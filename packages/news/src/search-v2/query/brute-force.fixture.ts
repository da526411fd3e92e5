/**
 * Test fixture: the query language's reference semantics, written apart from the engine: UTF-16 strings, character
 * positions, regex word splitting, every article scanned. A `title:` term is looked for in the article's title.
 */
import { caseFold } from 'unicode-case-folding';
import type { QueryNode, TermNode } from './ast.ts';

/** An article as the reference sees it: its text and its title (absent: empty). */
export interface BruteArticle {
  readonly text: string;
  readonly title?: string | null | undefined;
}

const WORD = /[\p{L}\p{N}]/u;
const isWord = (c: string | undefined) => c !== undefined && WORD.test(c);
const STAR = /(?<=^|\s)\*(?=\s|$)/u;

/**
 * Full case folding one character at a time (folding has no context, so a string folds as its characters), memoised
 * (also for the query's parts).
 */
const folds = new Map<string, string>();
function foldChar(c: string): string {
  let f = folds.get(c);
  if (f === undefined) folds.set(c, (f = caseFold(c)));
  return f;
}

const foldedTexts = new Map<string, string>();
function foldedText(text: string): string {
  let f = foldedTexts.get(text);
  if (f === undefined) foldedTexts.set(text, (f = caseFold(text)));
  return f;
}

/**
 * Where a text string starting at `at` equal to `part` ends (its characters read one by one until their folding
 * is as long as the part's), or -1. Case-sensitive: a plain comparison.
 */
function partEnd(text: string, at: number, part: string, caseInsensitive: boolean): number {
  if (!caseInsensitive) return text.startsWith(part, at) ? at + part.length : -1;
  const target = foldChar(part);
  let folded = '';
  let i = at;
  while (folded.length < target.length) {
    const cp = text.codePointAt(i);
    if (cp === undefined) return -1;
    const c = String.fromCodePoint(cp);
    folded += foldChar(c);
    if (!target.startsWith(folded)) return -1;
    i += c.length;
  }
  return i;
}

const WORD_RUN = /[\p{L}\p{N}]+/uy;
/** The end of a whole word (a run of letters and digits not preceded by one) starting at `at`, or -1. */
function wordEnd(text: string, at: number): number {
  WORD_RUN.lastIndex = at;
  const m = WORD_RUN.exec(text);
  if (m === null || isWord(Array.from(text.slice(Math.max(0, at - 2), at)).at(-1))) return -1;
  return at + m[0].length;
}

/** Where an occurrence of the term starting at `at` ends, or -1: literal parts, and one whole word for each `*`. */
function termEnd(text: string, at: number, t: TermNode, caseInsensitive: boolean): number {
  const parts = t.wildcard_word ? t.text.split(STAR) : [t.text];
  let end = at;
  for (const [i, part] of parts.entries()) {
    if (i > 0) end = wordEnd(text, end);
    if (end !== -1 && part !== '') end = partEnd(text, end, part, caseInsensitive);
    if (end === -1) return -1;
  }
  return end;
}

/** Start offsets (UTF-16) of the term's occurrences in the text, under the word rules and the case option. */
export function occurrences(text: string, t: TermNode, wholeWord: boolean, caseInsensitive = false): number[] {
  const out: number[] = [];
  // Quick rejection: every literal part (folded: a folded text holds the folding of any string it holds) is in it.
  const parts = (t.wildcard_word ? t.text.split(STAR) : [t.text]).filter((p) => p !== '');
  const haystack = caseInsensitive ? foldedText(text) : text;
  if (!parts.every((p) => haystack.includes(caseInsensitive ? caseFold(p) : p))) return out;
  const literal = !caseInsensitive && !t.wildcard_word;
  for (let at = literal ? text.indexOf(t.text) : 0; at !== -1 && at < text.length;) {
    const end = termEnd(text, at, t, caseInsensitive);
    if (end !== -1) {
      const before = isWord(Array.from(text.slice(Math.max(0, at - 2), at)).at(-1));
      const after = isWord(Array.from(text.slice(end, end + 2))[0]);
      if (t.prefix ? !before : !wholeWord || (!before && !after)) out.push(at);
    }
    at = literal ? text.indexOf(t.text, at + 1) : at + 1;
  }
  return out;
}
function wordIndex(text: string, at: number): number {
  let n = -1;
  for (const m of text.matchAll(/[\p{L}\p{N}]+/gu)) {
    if (m.index > at) break;
    n++;
  }
  return n;
}
const fieldOf = (a: BruteArticle, t: TermNode): string => (t.field === 'title' ? (a.title ?? '') : a.text);

/** True when the article matches the query (NEAR: both terms in one field, word positions in that field). */
export function bruteMatches(a: BruteArticle, node: QueryNode, wholeWord: boolean, caseInsensitive = false): boolean {
  const occ = (text: string, t: TermNode) => occurrences(text, t, wholeWord, caseInsensitive);
  switch (node.type) {
    case 'term':
      return occ(fieldOf(a, node), node).length > 0;
    case 'not':
      return !bruteMatches(a, node.child, wholeWord, caseInsensitive);
    case 'and':
      return node.children.every((c) => bruteMatches(a, c, wholeWord, caseInsensitive));
    case 'or':
      return node.children.some((c) => bruteMatches(a, c, wholeWord, caseInsensitive));
    case 'near': {
      const text = fieldOf(a, node.left);
      const l = occ(text, node.left).map((at) => wordIndex(text, at));
      const r = occ(text, node.right).map((at) => wordIndex(text, at));
      return l.some((x) => r.some((y) => Math.abs(x - y) <= node.distance));
    }
  }
}
