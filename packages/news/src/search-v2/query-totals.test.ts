import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { ArticleMetadata } from '../release/types.ts';
import { documents, filterKey, find, planPages, QueryTotals } from './index.ts';
import type { DocumentFilters } from './index.ts';
import { bruteForceOffsets, buildMemoryRelease, type FixtureArticle } from './memory-release.fixture.ts';

const VERSION = 'prop-v1';

const label = (...values: (string | null)[]) => fc.constantFrom(...values);
const articleArb: fc.Arbitrary<FixtureArticle> = fc.record({
  shard: fc.constantFrom('2015-01', '2015-02', '2016-03', '2016'),
  text: fc.string({ unit: fc.constantFrom('a', 'b', 'ä', '日', ' '), maxLength: 30 }),
  meta: fc.record({
    language: label('de', 'DE', 'ｄｅ', 'en', null),
    lang: label('deu', 'DEU', 'eng', null),
    hostname: label('a.example', 'A.EXAMPLE', 'straße.example', null),
    sitename: label('Site A', 'STRASSE.EXAMPLE', null),
    country: label('DE', 'fr', null),
    iptc_topic: label('x;y', 'Y', 'z', null),
  }),
});

const list = (...values: string[]) => fc.option(fc.subarray(values), { nil: undefined });
const filtersArb: fc.Arbitrary<DocumentFilters> = fc.record({
  languages: list('de', 'EN', 'fr'),
  commonlingua_languages: list('deu', 'ENG'),
  topics: list('X', 'y', 'z'),
  sources: list('a.example', 'strasse.example', 'site a'),
  countries: list('de', 'FR'),
});

/** Reference matching written from the spec's table, independent of compileFilters. */
function passes(meta: Partial<ArticleMetadata>, filters: DocumentFilters): boolean {
  const labels: Record<keyof DocumentFilters, (string | null | undefined)[]> = {
    languages: [meta.language],
    commonlingua_languages: [meta.lang],
    topics: meta.iptc_topic ? meta.iptc_topic.split(';') : [],
    sources: [meta.hostname, meta.sitename],
    countries: [meta.country],
  };
  return (Object.keys(labels) as (keyof DocumentFilters)[]).every((name) => {
    const wanted = filters[name];
    if (!wanted || wanted.length === 0) return true;
    return wanted.some((w) => labels[name].some((l) => typeof l === 'string' && filterKey(l) === filterKey(w)));
  });
}

describe('query-wide totals (examine every page, merge by (year, doc_ix))', () => {
  it('equal a brute-force scan of the articles and their metadata, for any page size and filters', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(articleArb, { minLength: 1, maxLength: 25 }),
        fc.string({ unit: fc.constantFrom('a', 'b', 'ä', '日', ' '), minLength: 1, maxLength: 3 }),
        fc.integer({ min: 1, max: 9 }),
        filtersArb,
        async (articles, query, pageSize, filters) => {
          const release = await buildMemoryRelease(articles, { indexVersion: VERSION });
          const found = await find(release, { index: 'news', query });
          const all = new QueryTotals();
          const filtered = new QueryTotals();
          let pageMatchingOccurrences = 0;
          for (const page of planPages(found, pageSize)) {
            const request = { index: 'news', expected_index_version: VERSION, query, ...page };
            all.add(await documents(release, request));
            const result = await documents(release, { ...request, ...filters });
            filtered.add(result);
            pageMatchingOccurrences += result.page_matching_occurrences;
          }
          const hits = articles
            .map((a) => ({ a, n: bruteForceOffsets(a.text, query).length }))
            .filter(({ n }) => n > 0);
          const sum = (xs: { n: number }[]) => xs.reduce((s, { n }) => s + n, 0);
          const matching = hits.filter(({ a }) => passes(a.meta ?? {}, filters));

          expect(all.occurrences).toBe(found.total_occurrences);
          expect(all.occurrences).toBe(sum(hits));
          expect(all.articles).toBe(hits.length);
          expect(filtered.articles).toBe(matching.length);
          expect(filtered.occurrences).toBe(sum(matching));
          // Occurrences partition by rank, so page counts add up; articles do not (a document spans pages).
          expect(pageMatchingOccurrences).toBe(sum(matching));
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('planPages', () => {
  it('covers every interval exactly once with pages of at most pageSize ranks', async () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(1000), fc.nat(300)), { maxLength: 6 }),
        fc.integer({ min: 1, max: 50 }),
        (segs, size) => {
          const found = {
            segment_by_shard: segs.map(([lo, n]) => [lo, lo + n] as const),
            shard_ids: segs.map((_, i) => `s${i}`),
          };
          const pages = planPages(found, size);
          expect(pages.every((p) => p.rank_to - p.rank_from >= 1 && p.rank_to - p.rank_from <= size)).toBe(true);
          segs.forEach(([lo, n], i) => {
            const mine = pages.filter((p) => p.shard_id === `s${i}`);
            expect(mine.reduce((s, p) => s + p.rank_to - p.rank_from, 0)).toBe(n);
            mine.forEach((p, j) => expect(p.rank_from).toBe(j === 0 ? lo : mine[j - 1]?.rank_to));
          });
        },
      ),
    );
  });
});
