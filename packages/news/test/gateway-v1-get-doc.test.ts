import { describe, expect, it } from 'vitest';
import { post, useFixtureStack, type AnyJson } from './gateway-harness.ts';
import { FIXTURE, LONG_URL } from './gateway-fixture.ts';

const fixture = useFixtureStack(FIXTURE, 'fixture-getdoc');
const find = (body: unknown) => post(fixture.url('/api/v1/find'), body);
const getDoc = (body: unknown) => post(fixture.url('/api/v1/get_doc'), body);
const q = { query: 'alpha beta', index: 'news' };

const utf8 = (s: string) => Buffer.from(s, 'utf8');
const codePoints = (s: string) => [...s].length;

describe('POST /api/v1/get_doc', () => {
  it('resolves every rank of every find segment to a document holding the query at needle_offset', async () => {
    const f = (await find({ ...q, year_max: 2019 })).body;
    let seen = 0;
    for (const [s, [lo, hi]] of (f.segment_by_shard as [number, number][]).entries()) {
      for (let rank = lo; rank < hi; rank++) {
        const r = await getDoc({ ...q, year_max: 2019, s, rank });
        expect(r.status).toBe(200);
        const d = r.body;
        const bytes = utf8(d.text);
        expect(bytes.length).toBe(d.disp_len);
        expect(bytes.subarray(d.needle_offset, d.needle_offset + 10).toString()).toBe('alpha beta');
        expect(d.spans.map(([piece]: [string]) => piece).join('')).toBe(d.text);
        expect(d.spans.some(([piece, label]: [string, string | null]) => piece === 'alpha beta' && label === '0')).toBe(
          true,
        );
        seen++;
      }
    }
    expect(seen).toBe(f.count);
  });

  it('gives doc_ix per crawl year: the first 2020 article is doc_ix 0', async () => {
    const f = (await find({ ...q, year_min: 2020, year_max: 2020 })).body;
    const [lo] = f.segment_by_shard[0];
    const d = (await getDoc({ ...q, year_min: 2020, year_max: 2020, s: 0, rank: lo })).body;
    expect(d.doc_ix).toBe(0);
    expect(d.doc_len).toBe(utf8(FIXTURE[3]!.text).length);
  });

  it('answers the v1 response fields, all present with their types', async () => {
    const f = (await find(q)).body;
    const d: AnyJson = (await getDoc({ ...q, s: 0, rank: f.segment_by_shard[0][0] })).body;
    expect(Object.keys(d).sort()).toEqual([
      'disp_len',
      'doc_ix',
      'doc_len',
      'latency_ms',
      'metadata',
      'needle_offset',
      'spans',
      'text',
    ]);
    for (const k of ['doc_ix', 'doc_len', 'disp_len', 'needle_offset']) expect(Number.isInteger(d[k])).toBe(true);
    expect(typeof d.latency_ms).toBe('number');
  });

  it('keeps v1 metadata within its bounds: long values cut at a character boundary, bad country_tld null', async () => {
    const f = (await find({ query: 'alpha', index: 'news', year_max: 2019 })).body;
    const docs = new Map<number, AnyJson>();
    for (const [s, [lo, hi]] of (f.segment_by_shard as [number, number][]).entries()) {
      for (let rank = lo; rank < hi; rank++) {
        const d = (await getDoc({ query: 'alpha', index: 'news', year_max: 2019, s, rank })).body;
        docs.set(d.doc_ix, d.metadata);
      }
    }
    const [a1, a2, a3] = [docs.get(0), docs.get(1), docs.get(2)];
    expect(Object.keys(a1).sort()).toEqual([
      'author',
      'country_tld',
      'date',
      'hostname',
      'language',
      'sitename',
      'title',
      'url',
      'warc_source',
    ]);
    expect(codePoints(a1.title)).toBe(2000);
    expect(a1.title).toBe('😀'.repeat(2000));
    expect(a1.country_tld).toBe('de');
    expect(a1.hostname).toBe('one.example');
    expect(a2.country_tld).toBeNull();
    expect(a3.country_tld).toBeNull();
    expect(a3.url).toBe(LONG_URL.slice(0, 2048));
  });

  it('shrinks the window to whole UTF-8 characters', async () => {
    const f = (await find({ query: 'alpha', index: 'news', year_min: 2019, year_max: 2019 })).body;
    const [lo] = f.segment_by_shard[1];
    for (let ctx = 1; ctx <= 12; ctx++) {
      const d = (
        await getDoc({
          query: 'alpha',
          index: 'news',
          year_min: 2019,
          year_max: 2019,
          s: 1,
          rank: lo,
          max_ctx_len: ctx,
        })
      ).body;
      expect(d.text).not.toContain('\uFFFD');
      expect(utf8(d.text).length).toBe(d.disp_len);
      expect(d.needle_offset).toBeLessThanOrEqual(ctx);
      expect(d.disp_len).toBeLessThanOrEqual(ctx + 5 + ctx);
    }
  });

  it('uses 1000 context bytes by default', async () => {
    const f = (await find({ ...q, year_min: 2020 })).body;
    const mid = f.segment_by_shard[0][0] + 150;
    const dflt = (await getDoc({ ...q, year_min: 2020, s: 0, rank: mid })).body;
    const explicit = (await getDoc({ ...q, year_min: 2020, s: 0, rank: mid, max_ctx_len: 1000 })).body;
    expect({ ...dflt, latency_ms: 0 }).toEqual({ ...explicit, latency_ms: 0 });
    expect(dflt.disp_len).toBe(1000 + 10 + 1000);
  });

  it('accepts max_ctx_len 1 and 10000 and rejects 0 and 10001', async () => {
    const f = (await find(q)).body;
    const base = { ...q, s: 0, rank: f.segment_by_shard[0][0] };
    expect((await getDoc({ ...base, max_ctx_len: 1 })).status).toBe(200);
    expect((await getDoc({ ...base, max_ctx_len: 10_000 })).status).toBe(200);
    expect((await getDoc({ ...base, max_ctx_len: 0 })).body.detail).toEqual([
      {
        type: 'greater_than_equal',
        loc: ['body', 'max_ctx_len'],
        msg: 'Input should be greater than or equal to 1',
        input: 0,
        ctx: { ge: 1 },
      },
    ]);
    expect((await getDoc({ ...base, max_ctx_len: 10_001 })).body.detail).toEqual([
      {
        type: 'less_than_equal',
        loc: ['body', 'max_ctx_len'],
        msg: 'Input should be less than or equal to 10000',
        input: 10_001,
        ctx: { le: 10_000 },
      },
    ]);
  });

  it('422 for s just outside the shard list and 200 for the last shard', async () => {
    const f = (await find({ ...q, year_min: 2019, year_max: 2020 })).body;
    const n = f.segment_by_shard.length;
    const [lo] = f.segment_by_shard[n - 1];
    expect((await getDoc({ ...q, year_min: 2019, year_max: 2020, s: n - 1, rank: lo })).status).toBe(200);
    expect((await getDoc({ ...q, year_min: 2019, year_max: 2020, s: n, rank: lo })).body.detail).toEqual([
      {
        type: 'less_than',
        loc: ['body', 's'],
        msg: `Input should be less than ${n}`,
        input: n,
        ctx: { lt: n },
      },
    ]);
    expect((await getDoc({ ...q, s: -1, rank: 0 })).body.detail[0]).toMatchObject({
      type: 'greater_than_equal',
      loc: ['body', 's'],
      ctx: { ge: 0 },
    });
  });

  it('422 for a rank just outside the query interval, 200 at its first and last rank', async () => {
    const f = (await find({ ...q, year_min: 2020 })).body;
    const [lo, hi] = f.segment_by_shard[0] as [number, number];
    const at = (rank: number) => getDoc({ ...q, year_min: 2020, s: 0, rank });
    expect((await at(lo)).status).toBe(200);
    expect((await at(hi - 1)).status).toBe(200);
    expect((await at(hi)).body.detail).toEqual([
      { type: 'less_than', loc: ['body', 'rank'], msg: `Input should be less than ${hi}`, input: hi, ctx: { lt: hi } },
    ]);
    if (lo > 0) {
      expect((await at(lo - 1)).body.detail).toEqual([
        {
          type: 'greater_than_equal',
          loc: ['body', 'rank'],
          msg: `Input should be greater than or equal to ${lo}`,
          input: lo - 1,
          ctx: { ge: lo },
        },
      ]);
    }
    expect((await at(-1)).body.detail[0]).toMatchObject({
      type: 'greater_than_equal',
      loc: ['body', 'rank'],
      ctx: { ge: 0 },
    });
    expect((await at(2 ** 53)).status).toBe(422);
  });

  it('422 value_error on rank when the query does not occur in that shard', async () => {
    const r = await getDoc({ ...q, year_min: 2021, s: 0, rank: 0 });
    expect(r.status).toBe(422);
    expect(r.body.detail[0]).toMatchObject({ type: 'value_error', loc: ['body', 'rank'], input: 0 });
  });

  it('missing for s and rank when absent', async () => {
    const r = await getDoc(q);
    expect(r.body.detail.map((d: AnyJson) => [d.type, d.loc])).toEqual([
      ['missing', ['body', 's']],
      ['missing', ['body', 'rank']],
    ]);
  });
});
