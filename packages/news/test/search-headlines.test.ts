/**
 * Headline search (issue 27 item 4) over the real corpora: a release built by the real builder (headline index per
 * shard), `title:` alone and combined with article terms, against a brute-force scan of each JSONL article's title
 * and text read apart from the builder; over HTTP through a real worker and gateway; and on the compressed kind.
 */
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRelease, openRelease, type OpenRelease } from '../src/release/index.ts';
import { bruteMatches, type BruteArticle } from '../src/search-v2/query/brute-force.fixture.ts';
import { parseQuery, search, type QueryNode } from '../src/search-v2/query/index.ts';
import { readJsonlGz } from './support/corpora.ts';
import { tempDir } from './support/fixtures.ts';
import { corpusFiles, CORPORA, startV2Processes, v2, type BuiltRelease, type V2Processes } from './v2-support.ts';
import { sharedRelease } from './support/shared-release.ts';

const VERSION = 'headlines-1';
const asArticle = (r: Record<string, unknown>): BruteArticle => ({
  text: r['text'] as string,
  title: (r['title'] as string | null | undefined) ?? '',
});

describe('title: over the real corpora (Reuters-21578, livedoor, 10kGNAD, fundus)', () => {
  let built: BuiltRelease;
  let release: OpenRelease;
  let articles: BruteArticle[];
  beforeAll(async () => {
    const inputs = corpusFiles();
    articles = inputs.flatMap((f) => readJsonlGz(f).map(asArticle));
    built = await sharedRelease({ inputs });
    release = await openRelease(built.dir, { mode: 'memory', expectedIndexVersion: built.version });
  }, 300_000);
  afterAll(async () => {
    release.close();
    await built.cleanup();
  });

  const brute = (query: string, wholeWord = false): number => {
    const tree = parseQuery(query).tree;
    return articles.filter((a) => bruteMatches(a, tree, wholeWord)).length;
  };

  it('holds one headline per article of the corpora', () => {
    const all = release.indexes.get('news')?.shards.reduce((n, s) => n + (s.titles?.stats.docCount ?? 0), 0);
    expect(all).toBe(articles.length);
  });

  it.each([
    'title:OIL',
    'title:"OIL PRICES"',
    'title:BANK OR title:BANCSHARES',
    'title:QTR NOT title:LOSS',
    'title:ECONOM*',
    'title:"* BANK"',
    'title:"AND"',
    'title:話題',
    'title:"Sports Watch"',
    'title:OIL NEAR/2 title:PRICES',
    'title:Trump',
    'title:die NOT title:der',
  ])('counts the articles whose headline matches %s as brute force does', async (query) => {
    const result = await search(release, { index: 'news', query });
    expect(result.articles).toBe(brute(query));
    expect(result.articles).toBeGreaterThan(0);
    expect(result.by_shard.reduce((n, s) => n + s.articles, 0)).toBe(result.articles);
  });

  it.each([
    'title:COCOA AND cocoa',
    'title:OIL NOT oil',
    'oil NOT title:OIL',
    '(title:OIL OR title:CRUDE) NOT (prices OR title:PRICES)',
    'title:NTTドコモ AND iPhone',
    'title:Trump OR Trump',
    'title:BANK AND rate NEAR/3 cut',
    'title:話題 AND "* の"',
  ])('combines headline and article terms in %s as brute force does', async (query) => {
    expect((await search(release, { index: 'news', query })).articles).toBe(brute(query));
  });

  it('applies whole_word and case: insensitive to title: terms', async () => {
    for (const query of ['title:OIL', 'title:BANK OR oil']) {
      expect((await search(release, { index: 'news', query, whole_word: true })).articles).toBe(brute(query, true));
    }
    const query = 'title:oil AND title:prices NOT opec';
    const lower = parseQuery(query).tree;
    const folded = articles.map((a) => ({ text: a.text.toLowerCase(), title: a.title?.toLowerCase() }));
    const expected = folded.filter((a) => bruteMatches(a, lower, false)).length;
    expect(expected).toBeGreaterThan(0);
    expect((await search(release, { index: 'news', query, case: 'insensitive' })).articles).toBe(expected);
  });

  it('matches random trees mixing headline and article terms as brute force does (property)', async () => {
    const titleWord = fc.constantFrom(
      'title:OIL',
      'title:BANK',
      'title:SAYS',
      'title:NET',
      'title:TO',
      'title:Trump',
      'title:話題',
      'title:U.S.',
    );
    const bodyWord = fc.constantFrom('oil', 'said', 'bank', 'the', 'die', 'Trump', 'の', 'price*');
    // The reference's NEAR scans words per occurrence: body NEARs use rarer words to keep the run short.
    const rareBodyWord = fc.constantFrom('oil', 'bank', 'Trump', 'crude');
    const term = fc.oneof(titleWord, bodyWord);
    const near = fc
      .oneof(fc.tuple(titleWord, titleWord), fc.tuple(rareBodyWord, rareBodyWord))
      .map(([a, b]) => `${a} NEAR/4 ${b}`);
    const query = fc
      .tuple(
        fc.oneof(term, near),
        fc.constantFrom(' AND ', ' OR ', ' NOT '),
        term,
        fc.constantFrom(' OR ', ' AND ', ' NOT '),
        fc.oneof(term, near),
      )
      .map(([a, o1, b, o2, c]) => `${a}${o1}(${b}${o2}${c})`);
    await fc.assert(
      fc.asyncProperty(query, async (q) => {
        const tree: QueryNode = parseQuery(q).tree;
        const result = await search(release, { index: 'news', query: q }).catch(() => undefined);
        if (result === undefined) return; // refused (a NOT-only branch): the refusals are tested on their own
        expect(result.articles).toBe(articles.filter((a) => bruteMatches(a, tree, false)).length);
      }),
      { numRuns: 40, seed: 4 },
    );
  }, 300_000);

  it('shows the first headline occurrence, with the headline as its context, when only title: terms match', async () => {
    const result = await search(release, { index: 'news', query: 'title:"OIL PRICES"', page_size: 5 });
    expect(result.page).toHaveLength(5);
    for (const a of result.page) {
      expect(a.first).toMatchObject({ term: 'title:"OIL PRICES"', match: 'OIL PRICES' });
      expect(a.metadata?.title).toBe(`${a.first.left}${a.first.match}${a.first.right}`);
    }
    const both = await search(release, { index: 'news', query: 'title:OIL AND crude', page_size: 5 });
    for (const a of both.page) expect(a.first).toMatchObject({ term: 'crude', match: 'crude' });
  });

  it('refuses NEAR between a headline term and an article term with 422, saying what to write', async () => {
    const e = await search(release, { index: 'news', query: 'title:OIL NEAR/5 prices' }).catch((err: unknown) => err);
    expect(e).toMatchObject({ code: 'invalid_query', status: 422 });
    expect((e as Error).message).toMatch(/put title: on both terms \(near in the headline\) or on neither/);
  });

  describe('over HTTP (real worker and gateway processes)', () => {
    let processes: V2Processes;
    beforeAll(async () => {
      processes = await startV2Processes(built);
    }, 120_000);
    afterAll(async () => processes.stop());

    it('POST /api/v2/search answers title: as the engine does, and a mixed NEAR with its 422 body', async () => {
      for (const query of ['title:"OIL PRICES"', 'title:話題 AND "* の"', 'title:OIL NOT oil']) {
        const reply = await v2(processes.url, 'search', { index: 'news', query, page_size: 3 });
        expect(reply.status).toBe(200);
        expect(reply.body).toMatchObject({ articles: brute(query), exact: true });
      }
      const refused = await v2(processes.url, 'search', { index: 'news', query: 'title:OIL NEAR/5 prices' });
      expect(refused.status).toBe(422);
      expect(refused.body).toMatchObject({ code: 'invalid_query' });
    });
  });
});

describe('title: on a compressed release (fundus, 258 articles in 22 languages)', () => {
  const tmp = tempDir('search-headlines-');
  afterAll(() => tmp.cleanup());

  it("counts as brute force does: the headline index is of the release's kind", async () => {
    const input = join(CORPORA, 'fundus-testdata-multi/fundus-testdata-multi.jsonl.gz');
    const articles = readJsonlGz(input).map(asArticle);
    await buildRelease({ inputs: [input], out: join(tmp.dir, 'r'), indexVersion: VERSION, kind: 'compressed' });
    const release = await openRelease(join(tmp.dir, 'r'), { mode: 'disk' });
    try {
      for (const query of [
        'title:Trump',
        'title:die OR title:the',
        'title:in NOT in',
        'title:"Golf von"',
        'title:Kinder* AND Schule',
      ]) {
        const tree = parseQuery(query).tree;
        const expected = articles.filter((a) => bruteMatches(a, tree, false)).length;
        expect((await search(release, { index: 'news', query })).articles, query).toBe(expected);
      }
    } finally {
      release.close();
    }
  }, 120_000);
});
