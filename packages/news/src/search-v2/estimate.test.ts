import { beforeAll, describe, expect, it } from 'vitest';
import type { OpenRelease } from '../release/types.ts';
import { estimate, V2_LIMITS } from './index.ts';
import { ARTICLES, VERSION } from './continuations.fixture.ts';
import { bruteForceOffsets, buildMemoryRelease, type FixtureArticle } from './memory-release.fixture.ts';
import { rejectionOf } from './v2-error.fixture.ts';
import { filterKey } from './filter-key.ts';

let small: OpenRelease;
let big: OpenRelease;
// 2,400 articles with 1–24 occurrences of "ab" each (about 30,000 in all): above the exact threshold.
const LANGS = ['de', 'en', 'ja', 'fr'];
const BIG: FixtureArticle[] = Array.from({ length: 2400 }, (_, i) => ({
  shard: i % 3 === 0 ? '2020-01' : '2021-02',
  text: `${'ab '.repeat(1 + ((i * 7) % 24))}x${i}`,
  meta: { language: LANGS[i % 4] as string, hostname: `h${i % 30}.example` },
}));

beforeAll(async () => {
  small = await buildMemoryRelease(ARTICLES, { indexVersion: VERSION });
  big = await buildMemoryRelease(BIG, { indexVersion: 'big' });
});

/** Brute force over the fixture texts: matching occurrences and articles of `query` for a language filter. */
function truth(articles: readonly FixtureArticle[], query: string, languages: readonly string[]) {
  const keys = new Set(languages.map(filterKey));
  let occurrences = 0;
  let docs = 0;
  for (const a of articles) {
    const n = bruteForceOffsets(a.text, query).length;
    const lang = a.meta?.language;
    if (n === 0 || (keys.size > 0 && (lang === undefined || lang === null || !keys.has(filterKey(lang))))) continue;
    occurrences += n;
    docs++;
  }
  return { occurrences, docs };
}

describe('estimate', () => {
  it('is exact under the threshold and equals brute force, with and without filters', async () => {
    for (const languages of [[], ['de'], ['EN', 'ja']]) {
      const res = await estimate(small, { index: 'news', query: 'Berlin', languages });
      const t = truth(ARTICLES, 'Berlin', languages);
      expect(res.mode).toBe('exact');
      expect(res.matching_occurrences).toEqual({ value: t.occurrences, low: t.occurrences, high: t.occurrences });
      expect(res.matching_articles).toEqual({ value: t.docs, low: t.docs, high: t.docs });
    }
  });

  it('lists matching occurrences per crawl period: brute force when exact, every period of the selection, summing to the total', async () => {
    const res = await estimate(small, { index: 'news', query: 'Berlin', languages: ['de'] });
    const keys = new Set(['de'].map(filterKey));
    const perPeriod = new Map<string, number>();
    for (const a of ARTICLES) {
      const lang = a.meta?.language;
      const n =
        lang !== undefined && lang !== null && keys.has(filterKey(lang))
          ? bruteForceOffsets(a.text, 'Berlin').length
          : 0;
      perPeriod.set(a.shard, (perPeriod.get(a.shard) ?? 0) + n);
    }
    expect(res.periods).toEqual(
      [...perPeriod].sort(([a], [b]) => (a < b ? -1 : 1)).map(([period, occurrences]) => ({ period, occurrences })),
    );
    const sampled = await estimate(big, { index: 'news', query: 'ab', languages: ['ja'] });
    expect(sampled.periods.map((p) => p.period)).toEqual(['2020-01', '2021-02']);
    const sum = sampled.periods.reduce((n, p) => n + p.occurrences, 0);
    expect(Math.abs(sum - sampled.matching_occurrences.value)).toBeLessThanOrEqual(2);
  });

  it('counts facets of the matching articles, values equal under folding merged', async () => {
    const res = await estimate(small, { index: 'news', query: 'Berlin' });
    const de = res.facets.language?.find((v) => filterKey(v.value) === 'de');
    const t = truth(ARTICLES, 'Berlin', ['de']);
    expect(de).toMatchObject({ occurrences: t.occurrences, articles: t.docs, observed: t.docs });
    expect(res.facets.topic?.map((v) => v.value)).toContain('politik');
    expect(Object.keys(res.facets)).toEqual(['language', 'lang', 'topic', 'source', 'country']);
  });

  it('samples above the threshold, reproducibly for one seed, with intervals that cover the truth in ≥ 93 of 100 seeds', async () => {
    const t = truth(BIG, 'ab', ['ja']);
    expect(truth(BIG, 'ab', []).occurrences).toBeGreaterThan(V2_LIMITS.estimateExactRanks);
    const first = await estimate(big, { index: 'news', query: 'ab', languages: ['ja'], seed: 5 });
    expect(first).toEqual(await estimate(big, { index: 'news', query: 'ab', languages: ['ja'], seed: 5 }));
    expect(first.mode).toBe('sampled');
    expect(first.resolved_ranks).toBe(V2_LIMITS.estimateSampleDefault);
    let occCovered = 0;
    let artCovered = 0;
    for (let seed = 1; seed <= 100; seed++) {
      const r = await estimate(big, { index: 'news', query: 'ab', languages: ['ja'], seed, sample_size: 1000 });
      if (r.matching_occurrences.low <= t.occurrences && t.occurrences <= r.matching_occurrences.high) occCovered++;
      if (r.matching_articles.low <= t.docs && t.docs <= r.matching_articles.high) artCovered++;
    }
    expect(occCovered).toBeGreaterThanOrEqual(93);
    expect(artCovered).toBeGreaterThanOrEqual(93);
  });

  it('omits the country facet without an attribution table and refuses the countries filter there', async () => {
    const noCountries = await buildMemoryRelease(ARTICLES, { indexVersion: VERSION, hasCountryAttribution: false });
    expect(Object.keys((await estimate(noCountries, { index: 'news', query: 'Berlin' })).facets)).not.toContain(
      'country',
    );
    expect(
      (await rejectionOf(() => estimate(noCountries, { index: 'news', query: 'Berlin', countries: ['DE'] }))).code,
    ).toBe('country_attribution_unavailable');
    expect((await rejectionOf(() => estimate(small, { index: 'news', query: '' }))).code).toBe('invalid_query');
  });
});
