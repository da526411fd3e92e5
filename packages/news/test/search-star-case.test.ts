/**
 * `*` as a whole word inside a quoted phrase with `case: "insensitive"` (issue 27): on both index kinds, built by the
 * real builder from 10kGNAD, fundus (22 languages) and Reuters-21578, against a brute force that folds every candidate
 * string with full Unicode case folding (`query/brute-force.fixture.ts`), in article text and headlines.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRelease, openRelease, type OpenRelease } from '../src/release/index.ts';
import { SHARD_KINDS } from '../src/shard/index.ts';
import { bruteMatches, type BruteArticle } from '../src/search-v2/query/brute-force.fixture.ts';
import { parseQuery, search } from '../src/search-v2/query/index.ts';
import { CORPORA_DIR, readJsonlGz } from './support/corpora.ts';
import { tempDir } from './support/fixtures.ts';

const INPUTS = ['10kgnad-de', 'fundus-testdata-multi', 'reuters21578-en'].map((c) =>
  join(CORPORA_DIR, c, `${c}.jsonl.gz`),
);

const QUERIES = [
  '"große * der"',
  '"DIE * REGIERUNG"',
  'Straße AND "die * der"',
  '"* STRASSE"',
  '"caisse * des"',
  '"oil * prices" NOT "CRUDE * PRICES"',
  'title:"* bank"',
  'title:"Die * von" OR "über * Jahre"',
];

describe.each(SHARD_KINDS)('"*" phrases with case: insensitive on the %s kind (real corpora)', (kind) => {
  const tmp = tempDir(`search-star-case-${kind}-`);
  let release: OpenRelease;
  let articles: BruteArticle[];
  beforeAll(async () => {
    articles = INPUTS.flatMap((f) =>
      readJsonlGz(f).map((r) => ({ text: r['text'] as string, title: (r['title'] as string | null) ?? '' })),
    );
    await buildRelease({ inputs: INPUTS, out: join(tmp.dir, 'r'), indexVersion: 'star-case', kind, concurrency: 2 });
    release = await openRelease(join(tmp.dir, 'r'), { mode: 'disk' });
  }, 600_000);
  afterAll(() => {
    release.close();
    tmp.cleanup();
  });

  it.each(QUERIES)('counts %s as the full-folding brute force does', async (query) => {
    const tree = parseQuery(query).tree;
    const expected = articles.filter((a) => bruteMatches(a, tree, false, true)).length;
    expect(expected).toBeGreaterThan(0);
    const result = await search(release, { index: 'news', query, case: 'insensitive' });
    expect(result).toMatchObject({ articles: expected, exact: true });
  });

  it('finds spellings the case-sensitive phrase misses (ß ~ SS, upper-case headlines)', async () => {
    for (const query of ['"* STRASSE"', '"caisse * des"']) {
      const sensitive = await search(release, { index: 'news', query });
      const insensitive = await search(release, { index: 'news', query, case: 'insensitive' });
      expect(insensitive.articles, query).toBeGreaterThan(sensitive.articles);
      const tree = parseQuery(query).tree;
      expect(sensitive.articles).toBe(articles.filter((a) => bruteMatches(a, tree, false)).length);
    }
  });
});
