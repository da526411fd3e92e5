import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import { combineSearch, SearchAnswer } from '../calls/search.ts';
import type { FixtureArticle } from '../memory-release.fixture.ts';
import { rejectionOf } from '../v2-error.fixture.ts';
import { search, type SearchRequest, type SearchResult } from './index.ts';
import { available, bruteArticles, useNewsRelease } from './search-corpus.fixture.ts';

// Every query is past this bound, so every answer is a sample (the real bound is 2,000,000 occurrences).
const SAMPLED = { locatedOccurrences: 0, verifiedBytes: 64 * 1_048_576 };
const SEEDS = Array.from({ length: 100 }, (_, i) => i + 1);
const holds = (truth: number, i: { low: number; high: number }) => i.low <= truth && truth <= i.high;

describe.skipIf(!available)(
  'search past its work bound: seeded samples with 95% intervals (Reuters-21578 and 10kGNAD)',
  () => {
    const news = useNewsRelease();

    const periodOf = (a: FixtureArticle) => a.shard;

    it.each([
      ['oil AND prices', {}],
      ['(die OR the) NOT Berlin', {}],
      ['econom* OR Regierung', {}],
      ['trade NEAR/5 bank', {}],
      ['said OR sagte', { sources: ['odd.example', 'de.example'] }],
    ] as const)(
      'the intervals of %s hold the brute-force truth in at least 93 of 100 seeds, in all and per period',
      async (query, filters) => {
        const request: SearchRequest = { index: 'news', query, sample_size: 400, ...filters };
        const keep = (a: FixtureArticle) =>
          !('sources' in filters) || (filters.sources as readonly string[]).includes(a.meta?.hostname as string);
        const matching = bruteArticles(news.articles, query, false, keep);
        const perPeriod = new Map<string, number>();
        for (const a of matching) perPeriod.set(periodOf(a), (perPeriod.get(periodOf(a)) ?? 0) + 1);
        let total = 0;
        let periods = 0;
        let periodChecks = 0;
        for (const seed of SEEDS) {
          const r = await search(news.release, { ...request, seed }, undefined, SAMPLED);
          expect(r).toMatchObject({ exact: false, sample: { size: 400, seed } });
          if (holds(matching.length, r.interval)) total++;
          for (const p of r.periods) {
            periodChecks++;
            if (holds(perPeriod.get(p.period) ?? 0, p.interval)) periods++;
          }
        }
        expect(total).toBeGreaterThanOrEqual(93);
        expect(periods / periodChecks).toBeGreaterThanOrEqual(0.93);
      },
      120_000,
    );

    it('answers the same for the same seed in the documented shape, lists only sampled matches, and scales facets to the estimate', async () => {
      const request: SearchRequest = {
        index: 'news',
        query: 'oil OR Regierung',
        sample_size: 500,
        seed: 9,
        page_size: 100,
      };
      const a = await search(news.release, request, undefined, SAMPLED);
      expect([...Value.Errors(SearchAnswer, a)].map((e) => `${e.path}: ${e.message}`)).toEqual([]);
      expect(await search(news.release, request, undefined, SAMPLED)).toEqual(a);
      const truth = new Set(bruteArticles(news.articles, 'oil OR Regierung').map((x) => x.text));
      expect(a.page.length).toBe(Math.min(100, a.following));
      expect(a.following).toBeLessThanOrEqual(a.interval.low);
      for (const p of a.page) expect(p.first.match === 'oil' || p.first.match === 'Regierung').toBe(true);
      expect(truth.size).toBeGreaterThan(a.following);
      const sources = a.facets.source ?? [];
      const sum = sources.reduce((n, v) => n + v.articles, 0);
      expect(Math.abs(sum - a.articles)).toBeLessThanOrEqual(sources.length);
    });

    it('pages with next_cursor through exactly the matches the seeded sample saw', async () => {
      const request: SearchRequest = {
        index: 'news',
        query: 'oil OR Regierung',
        sample_size: 300,
        seed: 4,
        page_size: 7,
      };
      let page = await search(news.release, request, undefined, SAMPLED);
      const all = page.following;
      const seen: string[] = [];
      for (;;) {
        expect(page.exact).toBe(false);
        seen.push(...page.page.map((a) => `${a.shard_id}/${a.doc_ix}`));
        if (page.next_cursor === null) break;
        page = await search(news.release, { ...request, cursor: page.next_cursor }, undefined, SAMPLED);
      }
      expect(all).toBeGreaterThan(7);
      expect(seen).toHaveLength(all);
      expect(new Set(seen).size).toBe(all);
    });

    it("merges workers' estimates with intervals that still hold the truth in at least 93 of 100 seeds, exact parts adding no width", async () => {
      const query = '(die OR the) NOT Berlin';
      const truth = bruteArticles(news.articles, query).length;
      const order = (await search(news.release, { index: 'news', query: 'cocoa' })).by_shard.map((s) => s.shard_id);
      let held = 0;
      for (const seed of SEEDS) {
        const request: SearchRequest = { index: 'news', query, sample_size: 300, seed };
        const parts: SearchResult[] = [
          await search(news.release, { ...request, year_max: 1987 }, undefined, SAMPLED),
          await search(news.release, { ...request, year_min: 2016 }, undefined, SAMPLED),
        ];
        const merged = combineSearch(parts, { order, indexVersion: news.release.indexVersion }, request);
        expect(merged).toMatchObject({
          exact: false,
          articles: (parts[0] as SearchResult).articles + (parts[1] as SearchResult).articles,
          sample: { size: 600, seed },
        });
        if (holds(truth, merged.interval)) held++;
        // An exact part (2016, within the real bound) and a sampled one: the width is the sampled part's alone.
        const exact2016 = await search(news.release, { ...request, year_min: 2016 });
        const mixed = combineSearch(
          [parts[0] as SearchResult, exact2016],
          { order, indexVersion: news.release.indexVersion },
          request,
        );
        const p0 = parts[0] as SearchResult;
        expect(mixed.interval).toEqual({
          low: p0.interval.low + exact2016.articles,
          high: p0.interval.high + exact2016.articles,
        });
      }
      expect(held).toBeGreaterThanOrEqual(93);
    }, 120_000);

    it('refuses a sample whose articles exceed the verified-bytes bound with 422 query_too_expensive', async () => {
      const e = await rejectionOf(() =>
        search(news.release, { index: 'news', query: 'the', sample_size: 100 }, undefined, {
          locatedOccurrences: 0,
          verifiedBytes: 20_000,
        }),
      );
      expect(e).toMatchObject({ code: 'query_too_expensive', status: 422 });
      expect(e.detail).toMatch(/more than 20000 bytes/);
    });
  },
);
