/**
 * v2 end to end on the real corpora: release built by the real builder (with a country table), worker and
 * gateway as real processes. Query-wide totals against a brute-force scan of the release's texts and metadata
 * stores; every v2 limit and error row that this release can reach, at its edge.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import xxhash from 'xxhash-wasm';
import type { DocumentFilters, FindResult } from '../src/search-v2/index.ts';
import { get } from './gateway-harness.ts';
import {
  bruteTotals,
  buildV2Release,
  corpusFiles,
  pageThroughDocuments,
  scanRelease,
  startV2Processes,
  v2,
  type BuiltRelease,
  type ScannedArticle,
  type V2Processes,
} from './v2-support.ts';

const VERSION = 'v2-corpora-1';
let release: BuiltRelease;
let stack: V2Processes;
let articles: ScannedArticle[];

/** A country table for the corpora's hostnames, written at test time: the TLD as country, in mixed case. */
function countriesCsv(inputs: readonly string[]): string {
  const hosts = new Set<string>();
  for (const file of inputs) {
    for (const line of gunzipSync(readFileSync(file)).toString('utf8').split('\n')) {
      const host = line === '' ? null : (JSON.parse(line) as { hostname?: string | null }).hostname;
      if (host) hosts.add(host);
    }
  }
  const rows = [...hosts].sort().flatMap((h, i) => {
    const tld = h.split('.').at(-1) ?? '';
    const country = h === 'news.livedoor.com' ? 'JP' : /^[a-z]{2}$/.test(tld) ? tld : null;
    return country === null ? [] : [`${h},${i % 2 === 0 ? country.toUpperCase() : country},tld,0.5`];
  });
  return ['hostname,country,country_source,country_confidence', ...rows].join('\n') + '\n';
}

beforeAll(async () => {
  const inputs = corpusFiles();
  release = await buildV2Release(VERSION, { inputs, countriesCsv: countriesCsv(inputs) });
  [stack, articles] = await Promise.all([startV2Processes(release), scanRelease(release)]);
}, 300_000);

afterAll(async () => {
  await stack?.stop();
  await release?.cleanup();
});

const base = () => ({ index: 'news', expected_index_version: VERSION });

async function findV2(query: string): Promise<FindResult> {
  const res = await v2(stack.url, 'find', { index: 'news', query });
  expect(res.status).toBe(200);
  return res.body as FindResult;
}

/** The shard where `query` has the most occurrences, with its interval. */
function largestSegment(found: FindResult): { shard_id: string; lo: number; hi: number } {
  let best = 0;
  found.segment_by_shard.forEach(([lo, hi], i) => {
    const [blo, bhi] = found.segment_by_shard[best] ?? [0, 0];
    if (hi - lo > bhi - blo) best = i;
  });
  const [lo, hi] = found.segment_by_shard[best] ?? [0, 0];
  return { shard_id: found.shard_ids[best] ?? '', lo, hi };
}

describe('query-wide totals on the real corpora', () => {
  it.each([
    [' oil ', 1000],
    ['Japan', 1000],
    ['ニュース', 100],
    ['Bundes', 97],
  ])(
    "paging %j through documents (pages of %i) gives find's total and the brute-force article count",
    async (query, pageSize) => {
      const found = await findV2(query);
      const shardsWithHits = found.segment_by_shard.filter(([lo, hi]) => hi > lo).length;
      const { totals, statuses } = await pageThroughDocuments(stack.url, found, query, pageSize);
      expect(shardsWithHits).toBeGreaterThan(1);
      expect(statuses.length).toBeGreaterThan(shardsWithHits);
      expect(statuses.every((s) => s === 200)).toBe(true);
      const brute = bruteTotals(articles, query);
      expect(totals.occurrences).toBe(found.total_occurrences);
      expect({ articles: totals.articles, occurrences: totals.occurrences }).toEqual(brute);
    },
  );

  // The corpora carry no `lang` labels, so the last filter must match nothing.
  it.each<[string, DocumentFilters, boolean]>([
    ['market', { topics: ['EARN'] }, true],
    ['Euro', { languages: ['ＤＥ'] }, true],
    ['iPhone', { sources: ['NEWS.LIVEDOOR.COM'] }, true],
    ['東京', { countries: ['jp', 'De'] }, true],
    [' die ', { languages: ['de'], countries: ['AT', 'de', 'ch'] }, true],
    ['Japan', { languages: ['en'], topics: ['crude', 'TRADE'] }, true],
    ['Euro', { commonlingua_languages: ['deu'] }, false],
  ])(
    'filtered totals for %j %j equal a brute-force scan of the metadata stores',
    async (query, filters, matchesSome) => {
      const found = await findV2(query);
      const { totals } = await pageThroughDocuments(stack.url, found, query, 1000, filters);
      const brute = bruteTotals(articles, query, filters);
      expect({ articles: totals.articles, occurrences: totals.occurrences }).toEqual(brute);
      expect(brute.articles > 0 && brute.articles < bruteTotals(articles, query).articles).toBe(matchesSome);
    },
  );

  it('keeps every occurrence of a page when resolving it through occurrences', async () => {
    const found = await findV2(' oil ');
    const seg = largestSegment(found);
    const res = await v2(stack.url, 'occurrences', {
      ...base(),
      shard_id: seg.shard_id,
      rank_from: seg.lo,
      rank_to: seg.hi,
      query: ' oil ',
    });
    expect(res.status).toBe(200);
    expect(res.body.page_occurrences).toBe(seg.hi - seg.lo);
    const texts = new Map(articles.map((a) => [`${a.year}/${a.docIx}`, a.text]));
    for (const o of res.body.occurrences as { year: string; doc_ix: number; offset: number }[]) {
      expect(
        texts
          .get(`${o.year}/${o.doc_ix}`)
          ?.subarray(o.offset, o.offset + 5)
          .toString(),
      ).toBe(' oil ');
    }
  });
});

describe('v2 limits at their edges (spec §8)', () => {
  it('occurrences resolves 50,000 ranks and answers 422 too_many_ranks for 50,001', async () => {
    const seg = largestSegment(await findV2('the'));
    expect(seg.hi - seg.lo).toBeGreaterThan(50_001);
    const ok = await v2(stack.url, 'occurrences', {
      ...base(),
      shard_id: seg.shard_id,
      rank_from: seg.lo,
      rank_to: seg.lo + 50_000,
      query: 'the',
    });
    expect([ok.status, ok.body.occurrences.length]).toEqual([200, 50_000]);
    const over = await v2(stack.url, 'occurrences', {
      ...base(),
      shard_id: seg.shard_id,
      rank_from: seg.lo,
      rank_to: seg.lo + 50_001,
      query: 'the',
    });
    expect(over.status).toBe(422);
    expect(over.body).toMatchObject({ code: 'too_many_ranks', limit: 50_000, detail: expect.any(String) });
  });

  it('occurrences accepts rank_to equal to the shard size and refuses one more', async () => {
    const info = await get(`${stack.url}/api/v2/info`);
    const shard = info.body.shards[0] as { shard_id: string; bytes: number };
    const ok = await v2(stack.url, 'occurrences', {
      ...base(),
      shard_id: shard.shard_id,
      rank_from: shard.bytes - 10,
      rank_to: shard.bytes,
    });
    expect([ok.status, ok.body.page_occurrences]).toEqual([200, 10]);
    const over = await v2(stack.url, 'occurrences', {
      ...base(),
      shard_id: shard.shard_id,
      rank_from: shard.bytes - 10,
      rank_to: shard.bytes + 1,
    });
    expect([over.status, over.body.code, over.body.shard_size]).toEqual([422, 'rank_out_of_range', shard.bytes]);
  });

  it('occurrences with a query refuses a range reaching one rank outside its interval', async () => {
    const seg = largestSegment(await findV2(' oil '));
    for (const [from, to] of [
      [seg.lo - 1, seg.lo + 5],
      [seg.hi - 5, seg.hi + 1],
    ]) {
      const res = await v2(stack.url, 'occurrences', {
        ...base(),
        shard_id: seg.shard_id,
        rank_from: from,
        rank_to: to,
        query: ' oil ',
      });
      expect(res.body).toMatchObject({ code: 'rank_out_of_range', interval_lo: seg.lo, interval_hi: seg.hi });
      expect(res.status).toBe(422);
    }
  });

  it('documents resolves 1,000 ranks and answers 422 too_many_ranks for 1,001', async () => {
    const seg = largestSegment(await findV2('Japan'));
    const ok = await v2(stack.url, 'documents', {
      ...base(),
      shard_id: seg.shard_id,
      rank_from: seg.lo,
      rank_to: seg.lo + 1000,
      query: 'Japan',
    });
    expect([ok.status, ok.body.page_occurrences]).toEqual([200, 1000]);
    const over = await v2(stack.url, 'documents', {
      ...base(),
      shard_id: seg.shard_id,
      rank_from: seg.lo,
      rank_to: seg.lo + 1001,
      query: 'Japan',
    });
    expect([over.status, over.body.code, over.body.limit]).toEqual([422, 'too_many_ranks', 1000]);
  });

  it('metadata answers 1,000 references in order and refuses 1,001 with a pydantic too_long item', async () => {
    const refs = Array.from({ length: 1000 }, (_, i) => ({
      year: articles[(i * 7919) % articles.length]!.year,
      doc_ix: articles[(i * 7919) % articles.length]!.docIx,
    }));
    const ok = await v2(stack.url, 'metadata', { ...base(), documents: refs });
    expect(ok.status).toBe(200);
    expect(
      ok.body.documents.map((d: { year: string; doc_ix: number }) => ({ year: d.year, doc_ix: d.doc_ix })),
    ).toEqual(refs);
    const byRef = new Map(articles.map((a) => [`${a.year}/${a.docIx}`, a.meta]));
    expect(
      ok.body.documents.every(
        (d: { year: string; doc_ix: number; metadata: unknown }) =>
          JSON.stringify(d.metadata) === JSON.stringify(byRef.get(`${d.year}/${d.doc_ix}`)),
      ),
    ).toBe(true);
    const over = await v2(stack.url, 'metadata', { ...base(), documents: [...refs, refs[0]] });
    expect(over.status).toBe(422);
    expect(over.body.detail[0]).toMatchObject({
      type: 'too_long',
      loc: ['body', 'documents'],
      msg: 'List should have at most 1000 items after validation, not 1001',
      ctx: { field_type: 'List', max_length: 1000, actual_length: 1001 },
    });
  });

  it('metadata answers 422 invalid_doc_ix one past the last article of a year', async () => {
    const year = articles[0]!.year;
    const count = articles.filter((a) => a.year === year).length;
    const ok = await v2(stack.url, 'metadata', { ...base(), documents: [{ year, doc_ix: count - 1 }] });
    expect(ok.status).toBe(200);
    const bad = await v2(stack.url, 'metadata', {
      ...base(),
      documents: [
        { year, doc_ix: 0 },
        { year, doc_ix: count },
      ],
    });
    expect(bad.status).toBe(422);
    expect(bad.body).toEqual({
      detail: expect.any(String),
      code: 'invalid_doc_ix',
      position: 1,
      year,
      doc_ix: count,
      doc_count: count,
    });
  });

  it('metadata answers 404 unknown_year, without Retry-After, for a well-formed year the release does not have', async () => {
    for (const year of ['1850', '1999']) {
      const res = await v2(stack.url, 'metadata', {
        ...base(),
        documents: [
          { year: articles[0]!.year, doc_ix: 0 },
          { year, doc_ix: 0 },
        ],
      });
      expect([res.status, res.headers.get('retry-after')]).toEqual([404, null]);
      expect(res.body).toEqual({ detail: expect.any(String), code: 'unknown_year', year });
    }
  });

  it('metadata answers 422 invalid_year, without Retry-After, for an ill-formed year', async () => {
    const res = await v2(stack.url, 'metadata', { ...base(), documents: [{ year: 'x', doc_ix: 0 }] });
    expect([res.status, res.headers.get('retry-after')]).toEqual([422, null]);
    expect(res.body).toEqual({ detail: expect.any(String), code: 'invalid_year', year: 'x' });
  });

  it('get_doc with full_text returns the whole article, whose xxHash64 equals the metadata text_xxhash64', async () => {
    const { h64Raw } = await xxhash();
    const found = await findV2('Zürich');
    const i = found.segment_by_shard.findIndex(([lo, hi]) => hi > lo);
    const [lo] = found.segment_by_shard[i] ?? [0];
    const res = await v2(stack.url, 'get_doc', {
      ...base(),
      query: 'Zürich',
      shard_id: found.shard_ids[i],
      rank: lo,
      full_text: true,
    });
    expect(res.status).toBe(200);
    expect(res.body.disp_len).toBe(res.body.doc_len);
    expect(Buffer.byteLength(res.body.text)).toBe(res.body.doc_len);
    expect(BigInt.asUintN(64, h64Raw(Buffer.from(res.body.text))).toString()).toBe(res.body.metadata.text_xxhash64);
    expect(res.body).toMatchObject({
      index_version: VERSION,
      shard_id: found.shard_ids[i],
      year: found.shard_years[i],
      rank: lo,
    });
  });
});

describe('v2 errors (spec §7)', () => {
  it('answers 409 stale_index_version to every continuation carrying another version, before resolving ranks', async () => {
    const stale = { index: 'news', expected_index_version: 'v2-corpora-0' };
    const expected = {
      detail: expect.any(String),
      code: 'stale_index_version',
      expected_index_version: 'v2-corpora-0',
      index_version: VERSION,
    };
    const calls: [string, object][] = [
      ['get_doc', { ...stale, query: 'x', shard_id: 'none', rank: 10 ** 12 }],
      ['occurrences', { ...stale, shard_id: 'none', rank_from: 0, rank_to: 10 ** 9 }],
      ['documents', { ...stale, shard_id: 'none', rank_from: 0, rank_to: 10 ** 9, countries: ['de'] }],
      ['metadata', { ...stale, documents: [{ year: '1850', doc_ix: -1 }] }],
    ];
    for (const [path, body] of calls) {
      const res = await v2(stack.url, path, body);
      expect([path, res.status, res.body]).toEqual([path, 409, expected]);
    }
  });

  it('validates v2 bodies with pydantic-style 422 items', async () => {
    const res = await v2(stack.url, 'get_doc', {
      index: 'news',
      query: 'x',
      shard_id: 's',
      rank: -1,
      full_text: 'maybe',
    });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([
      expect.objectContaining({ type: 'greater_than_equal', loc: ['body', 'rank'] }),
      expect.objectContaining({ type: 'missing', loc: ['body', 'expected_index_version'], msg: 'Field required' }),
      expect.objectContaining({
        type: 'bool_parsing',
        loc: ['body', 'full_text'],
        msg: 'Input should be a valid boolean, unable to interpret input',
      }),
    ]);
    const docs = await v2(stack.url, 'documents', {
      ...base(),
      shard_id: 's',
      rank_from: 0,
      rank_to: 1,
      languages: 'de',
      topics: [1],
    });
    expect(docs.body.detail).toEqual([
      expect.objectContaining({ type: 'list_type', loc: ['body', 'languages'], msg: 'Input should be a valid list' }),
      expect.objectContaining({ type: 'string_type', loc: ['body', 'topics', 0] }),
    ]);
    const huge = await v2(stack.url, 'occurrences', { ...base(), shard_id: 's', rank_from: 0, rank_to: 2 ** 53 });
    expect(huge.body.detail).toEqual([
      expect.objectContaining({
        type: 'less_than_equal',
        loc: ['body', 'rank_to'],
        ctx: { le: Number.MAX_SAFE_INTEGER },
      }),
    ]);
  });

  it('reports what the worker loaded in info', async () => {
    const info = await get(`${stack.url}/api/v2/info`);
    expect(info.status).toBe(200);
    expect(info.body).toMatchObject({
      index_version: VERSION,
      document_count: articles.length,
      available_indexes: ['news'],
    });
    const ids = (info.body.shards as { shard_id: string }[]).map((s) => s.shard_id);
    expect(info.body.date_range).toEqual({ first: ids[0], last: ids.at(-1) });
    expect(info.body.hub_retrieval).toEqual({
      repo: expect.any(String),
      revision: null,
      python_example: expect.any(String),
      note: expect.any(String),
    });
    expect((await get(`${stack.url}/api/v2/info?index=news`)).body.document_count).toBe(articles.length);
    const unknown = await get(`${stack.url}/api/v2/info?index=other`);
    expect([unknown.status, unknown.body.code]).toEqual([422, 'unknown_index']);
  });
});
