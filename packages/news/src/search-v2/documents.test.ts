import { beforeAll, describe, expect, it } from 'vitest';
import type { OpenRelease } from '../release/types.ts';
import { documents, find, V2_LIMITS } from './index.ts';
import { ARTICLES, VERSION } from './continuations.fixture.ts';
import { buildMemoryRelease } from './memory-release.fixture.ts';
import { rejectionOf } from './v2-error.fixture.ts';

let release: OpenRelease;
beforeAll(async () => {
  release = await buildMemoryRelease(ARTICLES, { indexVersion: VERSION });
});

const base = { index: 'news', expected_index_version: VERSION };

/** The whole 'Berlin' interval of a shard as a documents request. */
async function berlinPage(shardId: string) {
  const found = await find(release, { index: 'news', query: 'Berlin' });
  const [lo, hi] = found.segment_by_shard[found.shard_ids.indexOf(shardId)] ?? [0, 0];
  return { ...base, shard_id: shardId, rank_from: lo, rank_to: hi, query: 'Berlin' };
}

describe('documents', () => {
  it('merges a page into distinct documents in first-rank order with their occurrence counts and metadata', async () => {
    const page = await documents(release, await berlinPage('2016-05'));
    expect(page).toMatchObject({
      page_occurrences: 3,
      page_distinct_documents: 2,
      page_matching_documents: 2,
      page_matching_occurrences: 3,
    });
    const byDoc = Object.fromEntries(page.documents.map((d) => [d.doc_ix, d.occurrences]));
    expect(byDoc).toEqual({ 0: 2, 1: 1 });
    const firstRanks = page.documents.map((d) => d.first_rank);
    expect(firstRanks).toEqual([...firstRanks].sort((a, b) => a - b));
    expect(page.documents.find((d) => d.doc_ix === 1)?.metadata.hostname).toBe('strasse.example');
  });

  it('numbers documents per crawl year across monthly shards', async () => {
    const june = await documents(release, await berlinPage('2016-06'));
    expect(june.documents.map((d) => [d.year, d.doc_ix, d.occurrences])).toEqual([['2016', 2, 2]]);
  });

  it('matches languages after NFKC and case folding: DE, de and ｄｅ are one language', async () => {
    const pages = await Promise.all(
      ['2016-05', '2016-06', '2017-01'].map(async (s) =>
        documents(release, { ...(await berlinPage(s)), languages: ['De'] }),
      ),
    );
    expect(pages.flatMap((p) => p.documents.map((d) => d.metadata.language)).sort()).toEqual(['DE', 'de', 'ｄｅ']);
  });

  it('matches sources on hostname or sitename, with ß and SS folded alike', async () => {
    const page = await documents(release, { ...(await berlinPage('2016-06')), sources: ['STRASSE BLATT'] });
    expect(page.page_matching_documents).toBe(1);
    const may = await documents(release, { ...(await berlinPage('2016-05')), sources: ['WWW.TAZ.DE'] });
    expect(may.documents.map((d) => d.doc_ix)).toEqual([0]);
  });

  it('combines values of one list with OR and different lists with AND', async () => {
    const jan = await berlinPage('2017-01');
    expect((await documents(release, { ...jan, languages: ['en', 'ja'] })).page_matching_documents).toBe(2);
    expect(
      (await documents(release, { ...jan, languages: ['en', 'ja'], countries: ['jp'] })).documents.map(
        (d) => d.metadata.language,
      ),
    ).toEqual(['ja']);
    expect((await documents(release, { ...jan, languages: ['en'], countries: ['jp'] })).page_matching_documents).toBe(
      0,
    );
  });

  it('treats empty filter lists as no filter', async () => {
    const page = await documents(release, {
      ...(await berlinPage('2016-05')),
      languages: [],
      topics: [],
      sources: [],
      countries: [],
      commonlingua_languages: [],
    });
    expect(page.page_matching_documents).toBe(page.page_distinct_documents);
  });

  it('matches each label of a multi-label topic, and commonlingua_languages against lang', async () => {
    expect(
      (await documents(release, { ...(await berlinPage('2016-05')), topics: ['KULTUR'] })).documents.map(
        (d) => d.doc_ix,
      ),
    ).toEqual([0]);
    expect(
      (await documents(release, { ...(await berlinPage('2016-06')), topics: ['kultur'] })).page_matching_documents,
    ).toBe(1);
    expect(
      (await documents(release, { ...(await berlinPage('2017-01')), commonlingua_languages: ['ENG'] }))
        .page_matching_occurrences,
    ).toBe(1);
  });

  it('counts only matching documents in page_matching_* while page_occurrences and page_distinct_documents stay unfiltered', async () => {
    const page = await documents(release, {
      ...(await berlinPage('2016-05')),
      countries: ['de'],
      languages: ['de'],
      sources: ['taz.de'],
    });
    expect(page).toMatchObject({
      page_occurrences: 3,
      page_distinct_documents: 2,
      page_matching_documents: 0,
      page_matching_occurrences: 0,
      documents: [],
    });
  });

  it('answers 503 country_attribution_unavailable for a countries filter without an attribution table, and serves other filters', async () => {
    const bare = await buildMemoryRelease(ARTICLES, { indexVersion: VERSION, hasCountryAttribution: false });
    const page = { ...base, shard_id: '2016-05', rank_from: 0, rank_to: 5 };
    const err = await rejectionOf(() => documents(bare, { ...page, countries: ['de'] }));
    expect([err.status, err.toBody().code]).toEqual([503, 'country_attribution_unavailable']);
    expect((await documents(bare, { ...page, countries: [], languages: ['de'] })).page_occurrences).toBe(5);
  });

  it('answers 503 year_store_missing when the shard year has no metadata store', async () => {
    const broken = await buildMemoryRelease(ARTICLES, { indexVersion: VERSION, missingYears: ['2017'] });
    const err = await rejectionOf(() => documents(broken, { ...base, shard_id: '2017-01', rank_from: 0, rank_to: 3 }));
    expect(err.toBody()).toEqual({ detail: expect.any(String), code: 'year_store_missing', year: '2017' });
    expect(err.status).toBe(503);
  });

  it('returns 409 for a stale version before checking filters or ranks', async () => {
    const bare = await buildMemoryRelease(ARTICLES, { indexVersion: VERSION, hasCountryAttribution: false });
    const err = await rejectionOf(() =>
      documents(bare, {
        ...base,
        expected_index_version: 'x',
        shard_id: '2016-05',
        rank_from: 0,
        rank_to: 99_999,
        countries: ['de'],
      }),
    );
    expect(err.code).toBe('stale_index_version');
  });

  it('resolves exactly 1,000 ranks and refuses 1,001', async () => {
    const big = await buildMemoryRelease(
      Array.from({ length: 120 }, (_, i) => ({ shard: '2020-01', text: `doc ${i}: ` + 'ab'.repeat(10) })),
      { indexVersion: VERSION },
    );
    const ok = await documents(big, { ...base, shard_id: '2020-01', rank_from: 0, rank_to: V2_LIMITS.documentsRanks });
    expect(ok.page_occurrences).toBe(1000);
    expect(ok.documents.reduce((sum, d) => sum + d.occurrences, 0)).toBe(1000);
    const err = await rejectionOf(() => documents(big, { ...base, shard_id: '2020-01', rank_from: 0, rank_to: 1001 }));
    expect([err.code, err.status, err.context.limit]).toEqual(['too_many_ranks', 422, 1000]);
  });
});
