import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { OpenRelease } from '../../release/types.ts';
import { wordList } from '../../words/index.ts';
import { buildMemoryRelease, type FixtureArticle } from '../memory-release.fixture.ts';
import { drawWithoutReplacement } from './count-articles.ts';
import { frequencies } from './frequencies.ts';
import { keyness } from './keyness.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const VOCABULARY = ['oil', 'Oil', 'prices', 'rose', 'fell', 'bank', 'Straße', '原油'];
const SOURCES = ['a.example', 'b.example', 'c.example'];
const articlesArb = fc.array(
  fc.record({
    shard: fc.constantFrom('2020-01', '2020-02.p001', '2020-02.p002'),
    text: fc.array(fc.constantFrom(...VOCABULARY), { minLength: 1, maxLength: 20 }).map((w) => w.join(' ')),
    source: fc.constantFrom(...SOURCES),
  }),
  { minLength: 1, maxLength: 14 },
);
type Article = { shard: string; text: string; source: string };

async function releaseOf(articles: readonly Article[]): Promise<OpenRelease> {
  const dir = mkdtempSync(join(tmpdir(), 'subcorpus-test-'));
  dirs.push(dir);
  const fixture: FixtureArticle[] = articles.map((a) => ({
    shard: a.shard,
    text: a.text,
    meta: { hostname: a.source },
  }));
  return buildMemoryRelease(fixture, { wordCountsDir: dir });
}

/** The naive reference: every kept article's words counted into one Map. */
function naiveCounts(articles: readonly Article[], keep: (a: Article) => boolean): Map<string, number> {
  const m = new Map<string, number>();
  for (const a of articles) if (keep(a)) for (const w of wordList(a.text)) m.set(w, (m.get(w) ?? 0) + 1);
  return m;
}
const sorted = (m: Map<string, number>) =>
  [...m].map(([word, count]) => ({ word, count })).sort((x, y) => y.count - x.count || (x.word < y.word ? -1 : 1));
const total = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);

/** Byte-exact and case-sensitive, as a query term matches by default. */
const QUERIES: readonly [string, (text: string) => boolean][] = [
  ['oil', (t) => t.includes('oil')],
  ['oil AND NOT bank', (t) => t.includes('oil') && !t.includes('bank')],
  ['"prices rose" OR 原油', (t) => t.includes('prices rose') || t.includes('原油')],
];

describe('frequencies of a filtered or query subcorpus', () => {
  it('lists the words of the articles passing the filters and matching the query, as a naive count does', async () => {
    await fc.assert(
      fc.asyncProperty(
        articlesArb,
        fc.subarray(SOURCES, { minLength: 1 }),
        fc.option(fc.constantFrom(...QUERIES), { nil: undefined }),
        async (articles, sources, query) => {
          const release = await releaseOf(articles);
          const keep = (a: Article) => sources.includes(a.source) && (query === undefined || query[1](a.text));
          const got = await frequencies(release, {
            index: 'news',
            sources,
            ...(query === undefined ? {} : { query: query[0] }),
            limit: 1000,
          });
          const want = naiveCounts(articles, keep);
          expect(got.words.map(({ word, count }) => ({ word, count }))).toEqual(sorted(want));
          expect([got.tokens, got.exact, got.sample, got.rest_max]).toEqual([total(want), true, null, 0]);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('estimates from a seeded sample of articles past its bound: the sample is stated and the mean over seeds is the truth', async () => {
    const articles: Article[] = Array.from({ length: 40 }, (_, i) => ({
      shard: i % 2 === 0 ? '2020-01' : '2020-02.p001',
      text: `oil ${'prices '.repeat(i % 7)}${i % 3 === 0 ? 'bank' : 'rose'}`,
      source: SOURCES[i % 3] as string,
    }));
    const release = await releaseOf(articles);
    const truth = naiveCounts(articles, (a) => a.source !== 'c.example');
    let sum = 0;
    const seeds = 300;
    for (let seed = 1; seed <= seeds; seed++) {
      const got = await frequencies(
        release,
        { index: 'news', sources: ['a.example', 'b.example'], sample_size: 10, seed, limit: 10 },
        undefined,
        { exactArticles: 5, exactBytes: 1 << 20 },
      );
      expect([got.exact, got.sample]).toEqual([false, { size: 10, population: 27, seed }]);
      sum += got.words.find((w) => w.word === 'prices')?.count ?? 0;
    }
    // 'prices' is in 23 of the 27 articles, 76 times: the estimate's sd over seeds is ~8, its mean's ~0.5.
    expect(sum / seeds).toBeGreaterThan((truth.get('prices') ?? 0) * 0.95);
    expect(sum / seeds).toBeLessThan((truth.get('prices') ?? 0) * 1.05);
  });

  it('draws distinct articles uniformly', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 200 }), fc.integer({ min: 0, max: 250 }), fc.nat(), (total, n, seed) => {
        const d = drawWithoutReplacement(total, n, seed);
        expect(d.length).toBe(Math.min(n, total));
        expect(new Set(d).size).toBe(d.length);
        expect(d.every((x, i) => x >= 0 && x < total && (i === 0 || x > (d[i - 1] as number)))).toBe(true);
      }),
    );
  });
});

describe('keyness of a query subcorpus against the rest', () => {
  it("counts the rest as the period's tables minus the query's articles, exactly", async () => {
    await fc.assert(
      fc.asyncProperty(articlesArb, fc.constantFrom(...QUERIES), async (some, [query, matches]) => {
        const articles = [...some, { shard: '2020-02.p002', text: 'bank', source: 'a.example' }];
        const release = await releaseOf(articles);
        const k = await keyness(release, {
          index: 'news',
          a: { periods: ['2020-02'], query },
          b: 'rest',
          limit: 1000,
        });
        const inPeriod = (a: Article) => a.shard.startsWith('2020-02');
        const A = naiveCounts(articles, (a) => inPeriod(a) && matches(a.text));
        const B = naiveCounts(articles, (a) => inPeriod(a) && !matches(a.text));
        expect([k.a.tokens, k.b.tokens, k.exact]).toEqual([total(A), total(B), true]);
        for (const w of [...k.a_over_b, ...k.b_over_a])
          expect([w.word, w.count_a, w.count_b]).toEqual([w.word, A.get(w.word) ?? 0, B.get(w.word) ?? 0]);
        const listed = new Set([...k.a_over_b, ...k.b_over_a].map((w) => w.word));
        const c = total(A);
        const d = total(B);
        // Every word whose relative frequency differs is listed on its side (the lists hold up to 1000).
        for (const w of new Set([...A.keys(), ...B.keys()]))
          if ((A.get(w) ?? 0) * d !== (B.get(w) ?? 0) * c) expect(listed.has(w), w).toBe(true);
      }),
      { numRuns: 40 },
    );
  });

  it('answers 422 invalid_subcorpus for the rest of whole periods', async () => {
    const release = await releaseOf([{ shard: '2020-01', text: 'oil', source: 'a.example' }]);
    await expect(keyness(release, { index: 'news', a: { periods: ['2020-01'] }, b: 'rest' })).rejects.toMatchObject({
      code: 'invalid_subcorpus',
    });
  });
});
