/**
 * Test fixture: the query language's reference semantics, written apart from the engine: UTF-16 strings, character
 * positions, regex word splitting, every article scanned. A `title:` term is looked for in the article's title.
 */
import type { QueryNode, TermNode } from './ast.ts';

/** An article as the reference sees it: its text and its title (absent: empty). */
export interface BruteArticle {
  readonly text: string;
  readonly title?: string | null | undefined;
}

const WORD = /[\p{L}\p{N}]/u;
const isWord = (c: string | undefined) => c !== undefined && WORD.test(c);
/** A phrase with one `*` word: every whole word with the literal parts right before and after it. */
function starOccurrences(text: string, t: TermNode): number[] {
  const [before = '', after = ''] = t.text.split(/(?<=^|\s)\*(?=\s|$)/u);
  const out: number[] = [];
  for (const m of text.matchAll(/[\p{L}\p{N}]+/gu)) {
    if (text.slice(m.index - before.length, m.index) === before && text.startsWith(after, m.index + m[0].length))
      out.push(m.index - before.length);
  }
  return out;
}
export function occurrences(text: string, t: TermNode, wholeWord: boolean): number[] {
  if (t.wildcard_word) return starOccurrences(text, t);
  const out: number[] = [];
  for (let at = text.indexOf(t.text); at !== -1; at = text.indexOf(t.text, at + 1)) {
    const before = isWord(Array.from(text.slice(Math.max(0, at - 2), at)).at(-1));
    const after = isWord(Array.from(text.slice(at + t.text.length, at + t.text.length + 2))[0]);
    if (t.prefix ? !before : !wholeWord || (!before && !after)) out.push(at);
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
export function bruteMatches(a: BruteArticle, node: QueryNode, wholeWord: boolean): boolean {
  switch (node.type) {
    case 'term':
      return occurrences(fieldOf(a, node), node, wholeWord).length > 0;
    case 'not':
      return !bruteMatches(a, node.child, wholeWord);
    case 'and':
      return node.children.every((c) => bruteMatches(a, c, wholeWord));
    case 'or':
      return node.children.some((c) => bruteMatches(a, c, wholeWord));
    case 'near': {
      const text = fieldOf(a, node.left);
      const l = occurrences(text, node.left, wholeWord).map((at) => wordIndex(text, at));
      const r = occurrences(text, node.right, wholeWord).map((at) => wordIndex(text, at));
      return l.some((x) => r.some((y) => Math.abs(x - y) <= node.distance));
    }
  }
}
