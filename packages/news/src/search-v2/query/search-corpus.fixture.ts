/**
 * The real-news release of the search tests; the reference semantics they compare against are brute-force.fixture.ts.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll } from 'vitest';
import type { OpenRelease } from '../../release/types.ts';
import { buildMemoryRelease, type FixtureArticle } from '../memory-release.fixture.ts';
import { bruteMatches } from './brute-force.fixture.ts';
import { parseQuery } from './index.ts';

const CORPORA = fileURLToPath(new URL('../../../../../../shared/corpora', import.meta.url));
const REUTERS = `${CORPORA}/reuters21578-en/reuters21578-en.jsonl.gz`;
const GNAD = `${CORPORA}/10kgnad-de/10kgnad-de.jsonl.gz`;
export const available = existsSync(REUTERS) && existsSync(GNAD);

function texts(path: string, n: number): string[] {
  return gunzipSync(readFileSync(path))
    .toString('utf8')
    .split('\n', n)
    .filter((l) => l.trim() !== '')
    .map((l) => (JSON.parse(l) as { text: string }).text);
}

/**
 * 3,000 Reuters articles over three 1987 shards (hostnames alternating even/odd.example) and 1,500 10kGNAD ones in
 * 2016-01 (de.example).
 */
export async function buildNewsRelease(): Promise<{ release: OpenRelease; articles: FixtureArticle[] }> {
  const en = texts(REUTERS, 3000).map((text, i): FixtureArticle => ({
    shard: ['1987-02', '1987-03', '1987-04'][i % 3] as string,
    text,
    meta: { hostname: i % 2 === 0 ? 'even.example' : 'odd.example' },
  }));
  const de = texts(GNAD, 1500).map((text): FixtureArticle => ({
    shard: '2016-01',
    text,
    meta: { hostname: 'de.example' },
  }));
  const articles = [...en, ...de];
  return { release: await buildMemoryRelease(articles), articles };
}

/** Articles (passing `keep`) that match `query` under the reference semantics. */
export function bruteArticles(
  articles: readonly FixtureArticle[],
  query: string,
  wholeWord = false,
  keep: (a: FixtureArticle) => boolean = () => true,
): FixtureArticle[] {
  const tree = parseQuery(query).tree;
  return articles.filter((a) => keep(a) && bruteMatches(a, tree, wholeWord));
}

/** The release of `buildNewsRelease`, built before a suite's tests and closed after them. */
export function useNewsRelease(): { readonly release: OpenRelease; readonly articles: FixtureArticle[] } {
  const news = { release: undefined as unknown as OpenRelease, articles: [] as FixtureArticle[] };
  beforeAll(async () => {
    Object.assign(news, await buildNewsRelease());
  }, 120_000);
  afterAll(() => news.release.close());
  return news;
}
