/**
 * The research additions of v2 (timeline, contexts, estimate) end to end on the real corpora: a release built by
 * the real builder, worker and gateway as real processes, answers checked against brute-force scans of the
 * release's own texts and metadata stores.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { caseFold } from 'unicode-case-folding';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRelease, type OpenRelease } from '../src/release/index.ts';
import {
  estimate,
  type ContextsResult,
  type EstimateResult,
  type FindResult,
  type TimelineResult,
} from '../src/search-v2/index.ts';
import { planPages, QueryTotals } from '../src/search-v2/index.ts';
import {
  bruteMatchCount,
  bruteOccurrences,
  bruteTotals,
  corpusFiles,
  scanRelease,
  startV2Processes,
  v2,
  type BuiltRelease,
  type ScannedArticle,
  type V2Processes,
} from './v2-support.ts';
import { SHARED_VERSION as VERSION, sharedRelease } from './support/shared-release.ts';

let release: BuiltRelease;
let stack: V2Processes;
let articles: ScannedArticle[];
let inProcess: OpenRelease;

beforeAll(async () => {
  release = await sharedRelease({ inputs: corpusFiles() });
  [stack, articles, inProcess] = await Promise.all([
    startV2Processes(release),
    scanRelease(release),
    openRelease(release.dir, { mode: 'memory', expectedIndexVersion: VERSION, verify: 'sizes' }),
  ]);
}, 300_000);

afterAll(async () => {
  inProcess?.close();
  await stack?.stop();
  await release?.cleanup();
});

describe('v2 timeline on the real corpora', () => {
  it('gives every crawl period its brute-force occurrences, articles and text bytes', async () => {
    for (const query of ['Bundesregierung', 'the', '東京']) {
      const res = await v2(stack.url, 'timeline', { index: 'news', query });
      expect(res.status).toBe(200);
      const body = res.body as TimelineResult;
      const index = inProcess.indexes.get('news');
      const q = Buffer.from(query);
      const expected = (index?.shards ?? []).map((s) => {
        let occurrences = 0;
        let bytes = 0;
        for (let d = 0; d < s.reader.stats.docCount; d++) {
          const text = s.reader.documentBytes(d);
          occurrences += bruteOccurrences(text, q);
          bytes += text.length;
        }
        return { period: s.shardId, occurrences, articles: s.reader.stats.docCount, text_bytes: bytes };
      });
      expect(
        body.periods.map(({ period, occurrences, articles: a, text_bytes }) => ({
          period,
          occurrences,
          articles: a,
          text_bytes,
        })),
      ).toEqual(expected);
      expect(body.total_occurrences).toBe(bruteTotals(articles, query).occurrences);
    }
  });
});

describe('v2 contexts on the real corpora', () => {
  it('returns a concordance page whose lines are the article bytes around each match', async () => {
    const found = (await v2(stack.url, 'find', { index: 'news', query: 'Regierung' })).body as FindResult;
    const i = found.segment_by_shard.findIndex(([lo, hi]) => hi - lo > 5);
    const [lo, hi] = found.segment_by_shard[i] as [number, number];
    const res = await v2(stack.url, 'contexts', {
      index: 'news',
      expected_index_version: VERSION,
      shard_id: found.shard_ids[i],
      rank_from: lo,
      rank_to: Math.min(hi, lo + 1000),
      query: 'Regierung',
      context_bytes: 80,
    });
    expect(res.status).toBe(200);
    const body = res.body as ContextsResult;
    expect(body.contexts).toHaveLength(Math.min(hi, lo + 1000) - lo);
    const byKey = new Map(articles.map((a) => [`${a.year}/${a.docIx}`, a]));
    for (const line of body.contexts) {
      const a = byKey.get(`${line.year}/${line.doc_ix}`);
      expect(a).toBeDefined();
      const left = Buffer.from(line.left);
      expect(Buffer.byteLength(line.left)).toBeLessThanOrEqual(80);
      expect(Buffer.byteLength(line.right)).toBeLessThanOrEqual(80);
      expect(line.match).toBe('Regierung');
      expect(
        a?.text.subarray(line.offset - left.length, line.offset + 9 + Buffer.byteLength(line.right)).toString(),
      ).toBe(line.left + line.match + line.right);
      expect(line.title).toBe(a?.meta.title ?? null);
    }
  });

  it('answers 422 at the edges of its limits', async () => {
    const body = {
      index: 'news',
      expected_index_version: VERSION,
      shard_id: 'x',
      rank_from: 0,
      rank_to: 1,
      query: 'a',
    };
    expect((await v2(stack.url, 'contexts', { ...body, context_bytes: 201 })).status).toBe(422);
    expect((await v2(stack.url, 'contexts', { ...body, query: '' })).status).toBe(422);
    const found = (await v2(stack.url, 'find', { index: 'news', query: 'e' })).body as FindResult;
    const [lo] = found.segment_by_shard[0] as [number, number];
    const ok = { ...body, shard_id: found.shard_ids[0], rank_from: lo, query: 'e', context_bytes: 200 };
    expect((await v2(stack.url, 'contexts', { ...ok, rank_to: lo + 1000 })).status).toBe(200);
    const over = await v2(stack.url, 'contexts', { ...ok, rank_to: lo + 1001 });
    expect(over.status).toBe(422);
    expect(over.body.code).toBe('too_many_ranks');
  });
});

describe('v2 estimate on the real corpora', () => {
  it('is exact for rare queries and equals brute force under filters', async () => {
    for (const [query, filters] of [
      ['Bundesregierung', {}],
      ['Bundesregierung', { languages: ['de'] }],
      ['oil', { topics: ['crude'] }],
      ['東京', { languages: ['ja'] }],
    ] as const) {
      const res = await v2(stack.url, 'estimate', { index: 'news', query, ...filters });
      expect(res.status).toBe(200);
      const body = res.body as EstimateResult;
      const t = bruteTotals(articles, query, filters);
      expect(body.mode).toBe('exact');
      expect(body.matching_occurrences).toEqual({ value: t.occurrences, low: t.occurrences, high: t.occurrences });
      expect(body.matching_articles).toEqual({ value: t.articles, low: t.articles, high: t.articles });
    }
  });

  it('samples "the" and its 95% intervals hold the brute-force truth in at least 93 of 100 seeds', async () => {
    const filters = { languages: ['en'] };
    const t = bruteTotals(articles, 'the', filters);
    let occ = 0;
    let art = 0;
    for (let seed = 1; seed <= 100; seed++) {
      const r = await estimate(inProcess, { index: 'news', query: 'the', ...filters, seed, sample_size: 1000 });
      expect(r.mode).toBe('sampled');
      if (r.matching_occurrences.low <= t.occurrences && t.occurrences <= r.matching_occurrences.high) occ++;
      if (r.matching_articles.low <= t.articles && t.articles <= r.matching_articles.high) art++;
    }
    expect(occ).toBeGreaterThanOrEqual(93);
    expect(art).toBeGreaterThanOrEqual(93);
  });

  it('lists each source once by its site name, and a source facet counts what filtering by it selects (issue 29 bug 4)', async () => {
    for (const query of ['Österreich', 'Bundesregierung']) {
      const facets = (await estimate(inProcess, { index: 'news', query })).facets.source ?? [];
      const names = facets.map((f) => f.value);
      expect(names).toContain('DER STANDARD');
      // 10kGNAD's articles have no host name, fundus's Der Standard article has one: one outlet, one value.
      expect(names).not.toContain('www.derstandard.at');
      for (const f of facets) {
        const filtered = await estimate(inProcess, { index: 'news', query, sources: [f.value] });
        expect(filtered.mode).toBe('exact');
        expect({
          value: f.value,
          articles: filtered.matching_articles.value,
          occurrences: filtered.matching_occurrences.value,
        }).toEqual({ value: f.value, articles: f.articles, occurrences: f.occurrences });
      }
    }
  });

  it('gives facets of the matching articles and refuses bad sample sizes', async () => {
    const res = await v2(stack.url, 'estimate', { index: 'news', query: 'the' });
    expect(res.status).toBe(200);
    const body = res.body as EstimateResult;
    expect(body.facets.language?.[0]?.value).toBe('en');
    expect(body.facets.country).toBeUndefined();
    expect((await v2(stack.url, 'estimate', { index: 'news', query: 'the', sample_size: 99 })).status).toBe(422);
    expect((await v2(stack.url, 'estimate', { index: 'news', query: 'the', sample_size: 20_001 })).status).toBe(422);
    expect((await v2(stack.url, 'estimate', { index: 'news', query: 'the', countries: ['DE'] })).status).toBe(503);
  });
});

describe('HTTP compression through the gateway', () => {
  async function raw(path: string, body: unknown, acceptEncoding?: string) {
    const res = await request(`${stack.url}${path}`, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: {
        'content-type': 'application/json',
        ...(acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding }),
      },
    });
    return { status: res.statusCode, headers: res.headers, bytes: Buffer.from(await res.body.arrayBuffer()) };
  }

  it('compresses large JSON answers with brotli or gzip as asked, to the same JSON, and leaves small ones plain', async () => {
    const found = (await v2(stack.url, 'find', { index: 'news', query: 'the' })).body as FindResult;
    const i = found.segment_by_shard.findIndex(([lo, hi]) => hi - lo >= 1000);
    const [lo] = found.segment_by_shard[i] as [number, number];
    const body = {
      index: 'news',
      expected_index_version: VERSION,
      shard_id: found.shard_ids[i],
      rank_from: lo,
      rank_to: lo + 1000,
      query: 'the',
    };
    const plain = await raw('/api/v2/documents', body);
    expect(plain.headers['content-encoding']).toBeUndefined();
    for (const [accept, coding, decode] of [
      ['br, gzip', 'br', brotliDecompressSync],
      ['gzip', 'gzip', gunzipSync],
    ] as const) {
      const res = await raw('/api/v2/documents', body, accept);
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe(coding);
      expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
      expect(JSON.parse(decode(res.bytes).toString())).toEqual(JSON.parse(plain.bytes.toString()));
      expect(res.bytes.length).toBeLessThan(plain.bytes.length / 3);
    }
    const count = await raw('/api/v2/count', { index: 'news', query: 'the' }, 'gzip, br');
    expect(count.headers['content-encoding']).toBeUndefined();
  });
});

describe('matching options on the real corpora', () => {
  const OPTIONS = [
    { name: 'case-insensitive', body: { case: 'insensitive' }, opts: { caseInsensitive: true, wholeWord: false } },
    { name: 'whole word', body: { whole_word: true }, opts: { caseInsensitive: false, wholeWord: true } },
    { name: 'both', body: { case: 'insensitive', whole_word: true }, opts: { caseInsensitive: true, wholeWord: true } },
  ] as const;

  it('counts as a brute-force scan with Unicode case folding and the word rule does', async () => {
    const folded = articles.map((a) => caseFold(a.text.toString('utf8')));
    for (const query of ['oil prices', 'Oil', 'Regierung', 'STRASSE']) {
      for (const { name, body, opts } of OPTIONS) {
        const res = await v2(stack.url, 'count', { index: 'news', query, ...body });
        expect(res.status, `${query} ${name}`).toBe(200);
        const expected = articles.reduce((n, a, i) => n + bruteMatchCount(a.text, query, opts, folded[i]), 0);
        expect(res.body.count, `${query} ${name}`).toBe(expected);
      }
    }
  });

  it('pages every spelling through documents to the brute-force article and occurrence totals', async () => {
    const query = 'Oil';
    const body = { case: 'insensitive', whole_word: true };
    const found = (await v2(stack.url, 'find', { index: 'news', query, ...body })).body as FindResult;
    expect(found.shard_ids.length).toBeGreaterThan(new Set(found.shard_ids).size); // several spellings in some shard
    const totals = new QueryTotals();
    for (const page of planPages(found, 1000)) {
      const res = await v2(stack.url, 'documents', {
        index: 'news',
        expected_index_version: VERSION,
        query,
        ...page,
        ...body,
      });
      expect(res.status).toBe(200);
      totals.add(res.body);
    }
    const opts = { caseInsensitive: true, wholeWord: true };
    const perArticle = articles.map((a) => bruteMatchCount(a.text, query, opts)).filter((n) => n > 0);
    expect(perArticle.length).toBeGreaterThan(10);
    expect(totals.occurrences).toBe(found.total_occurrences);
    expect(totals.occurrences).toBe(perArticle.reduce((x, y) => x + y, 0));
    expect(totals.articles).toBe(perArticle.length);
  });

  it('answers get_doc for a rank of any spelling, and refuses ranks outside every interval', async () => {
    const found = (await v2(stack.url, 'find', { index: 'news', query: 'oil', case: 'insensitive' }))
      .body as FindResult;
    const exactFound = (await v2(stack.url, 'find', { index: 'news', query: 'oil' })).body as FindResult;
    // An interval of another spelling than "oil" (its ranks differ from the case-sensitive interval of its shard).
    const i = found.segment_by_shard.findIndex(([lo, hi], k) => {
      const e = exactFound.segment_by_shard[exactFound.shard_ids.indexOf(found.shard_ids[k] as string)];
      return hi > lo && e !== undefined && (lo >= e[1] || hi <= e[0]);
    });
    expect(i).toBeGreaterThan(-1);
    const [lo] = found.segment_by_shard[i] as [number, number];
    const doc = await v2(stack.url, 'get_doc', {
      index: 'news',
      expected_index_version: VERSION,
      query: 'oil',
      case: 'insensitive',
      shard_id: found.shard_ids[i],
      rank: lo,
    });
    expect(doc.status).toBe(200);
    expect((doc.body.spans as [string, string | null][]).some(([t, m]) => m === '0' && t.toLowerCase() === 'oil')).toBe(
      true,
    );
    const exact = await v2(stack.url, 'get_doc', {
      index: 'news',
      expected_index_version: VERSION,
      query: 'oil',
      shard_id: found.shard_ids[i],
      rank: lo,
    });
    expect(exact.status).toBe(422);
  });

  it('refuses whole-word matching of Japanese with a clear 422', async () => {
    const res = await v2(stack.url, 'count', { index: 'news', query: '東京', whole_word: true });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('whole_word_unsupported');
    expect(res.body.detail).toMatch(/Japanese/);
    const bad = await v2(stack.url, 'count', { index: 'news', query: 'x', case: 'lower' });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0]).toMatchObject({ type: 'literal_error', loc: ['body', 'case'] });
  });
});
