/**
 * The real-news release of the search tests and the reference semantics they compare against, written apart from
 * the engine: UTF-16 strings, character positions, regex word splitting.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll } from 'vitest';
import type { OpenRelease } from '../../release/types.ts';
import { buildMemoryRelease, type FixtureArticle } from '../memory-release.fixture.ts';
import { parseQuery, type QueryNode, type TermNode } from './index.ts';

const CORPORA = fileURLToPath(new URL('../../../../../../shared/corpora', import.meta.url));
const REUTERS = `${CORPORA}/reuters21578-en/reuters21578-en.jsonl.gz`;
const GNAD = `${CORPORA}/10kgnad-de/10kgnad-de.jsonl.gz`;
export const available = existsSync(REUTERS) && existsSync(GNAD);

function texts(path: string, n: number): string[] {
  return gunzipSync(readFileSync(path)).toString('utf8').split('\n', n).filter((l) => l.trim() !== '').map((l) => (JSON.parse(l) as { text: string }).text);
}

const WORD = /[\p{L}\p{N}]/u;
const isWord = (c: string | undefined) => c !== undefined && WORD.test(c);
/** A phrase with one `*` word: every whole word with the literal parts right before and after it. */
function starOccurrences(text: string, t: TermNode): number[] {
  const [before = '', after = ''] = t.text.split(/(?<=^|\s)\*(?=\s|$)/u);
  const out: number[] = [];
  for (const m of text.matchAll(/[\p{L}\p{N}]+/gu)) {
    if (text.slice(m.index - before.length, m.index) === before && text.startsWith(after, m.index + m[0].length)) out.push(m.index - before.length);
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
  for (const m of text.matchAll(/[\p{L}\p{N}]+/gu)) { if (m.index > at) break; n++; }
  return n;
}
export function bruteMatches(text: string, node: QueryNode, wholeWord: boolean): boolean {
  switch (node.type) {
    case 'term': return occurrences(text, node, wholeWord).length > 0;
    case 'not': return !bruteMatches(text, node.child, wholeWord);
    case 'and': return node.children.every((c) => bruteMatches(text, c, wholeWord));
    case 'or': return node.children.some((c) => bruteMatches(text, c, wholeWord));
    case 'near': {
      const l = occurrences(text, node.left, wholeWord).map((a) => wordIndex(text, a));
      const r = occurrences(text, node.right, wholeWord).map((a) => wordIndex(text, a));
      return l.some((a) => r.some((b) => Math.abs(a - b) <= node.distance));
    }
  }
}

/**
 * 3,000 Reuters articles over three 1987 shards (hostnames alternating even/odd.example) and 1,500 10kGNAD ones in
 * 2016-01 (de.example).
 */
export async function buildNewsRelease(): Promise<{ release: OpenRelease; articles: FixtureArticle[] }> {
  const en = texts(REUTERS, 3000).map((text, i): FixtureArticle => ({ shard: ['1987-02', '1987-03', '1987-04'][i % 3] as string, text, meta: { hostname: i % 2 === 0 ? 'even.example' : 'odd.example' } }));
  const de = texts(GNAD, 1500).map((text): FixtureArticle => ({ shard: '2016-01', text, meta: { hostname: 'de.example' } }));
  const articles = [...en, ...de];
  return { release: await buildMemoryRelease(articles), articles };
}

/** Articles (passing `keep`) that match `query` under the reference semantics. */
export function bruteArticles(articles: readonly FixtureArticle[], query: string, wholeWord = false, keep: (a: FixtureArticle) => boolean = () => true): FixtureArticle[] {
  const tree = parseQuery(query).tree;
  return articles.filter((a) => keep(a) && bruteMatches(a.text, tree, wholeWord));
}

/** The release of `buildNewsRelease`, built before a suite's tests and closed after them. */
export function useNewsRelease(): { readonly release: OpenRelease; readonly articles: FixtureArticle[] } {
  const news = { release: undefined as unknown as OpenRelease, articles: [] as FixtureArticle[] };
  beforeAll(async () => { Object.assign(news, await buildNewsRelease()); }, 120_000);
  afterAll(() => news.release.close());
  return news;
}
