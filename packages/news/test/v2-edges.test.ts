/**
 * v2 edges that need articles of a chosen size: a release of test-written articles (no third-party text) without a
 * country table, served by real worker and gateway processes. The 1 MiB full-text limit, the 16 MiB metadata
 * response limit and the countries filter without an attribution table.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FindResult } from '../src/search-v2/index.ts';
import { buildV2Release, startV2Processes, v2, type BuiltRelease, type V2Processes } from './v2-support.ts';

const VERSION = 'v2-edges-1';
const MIB = 1024 * 1024;
const at = (day: number) => `2024-03-${String(day).padStart(2, '0')}T12:00:00Z`;

// doc_ix follows input order inside the one crawl month: 0 = exactly 1 MiB, 1 = one byte more, 2 = 1 MiB title.
const RECORDS = [
  { text: 'needle ' + 'a'.repeat(MIB - 7), warc_date: at(1), title: 'exactly one MiB', hostname: 'one.example' },
  { text: 'needle ' + 'b'.repeat(MIB - 6), warc_date: at(2), title: 'one byte over', hostname: 'two.example' },
  { text: 'needle with a long title', warc_date: at(3), title: 't'.repeat(MIB), hostname: 'three.example' },
  { text: 'needle in a small article', warc_date: at(4), title: 'small', hostname: 'four.example', language: 'de' },
];

let release: BuiltRelease;
let stack: V2Processes;
let found: FindResult;

beforeAll(async () => {
  release = await buildV2Release(VERSION, { records: RECORDS });
  stack = await startV2Processes(release);
  found = (await v2(stack.url, 'find', { index: 'news', query: 'needle' })).body as FindResult;
}, 120_000);

afterAll(async () => {
  await stack?.stop();
  await release?.cleanup();
});

const base = () => ({ index: 'news', expected_index_version: VERSION, shard_id: found.shard_ids[0] });

/** get_doc for each rank of 'needle' (one per article), keyed by doc_ix. */
async function getDocs(extra: object): Promise<Map<number, { status: number; body: Record<string, unknown> }>> {
  const [lo, hi] = found.segment_by_shard[0] ?? [0, 0];
  const out = new Map<number, { status: number; body: Record<string, unknown> }>();
  for (let rank = lo; rank < hi; rank++) {
    const occ = await v2(stack.url, 'occurrences', { ...base(), rank_from: rank, rank_to: rank + 1, query: 'needle' });
    const res = await v2(stack.url, 'get_doc', { ...base(), query: 'needle', rank, ...extra });
    out.set(occ.body.occurrences[0].doc_ix as number, res);
  }
  return out;
}

describe('full_text limit of 1 MiB', () => {
  it('returns an article of exactly 1,048,576 bytes in full and answers 422 article_too_large one byte over', async () => {
    expect(found.total_occurrences).toBe(4);
    const docs = await getDocs({ full_text: true });
    const exact = docs.get(0);
    expect(exact?.status).toBe(200);
    expect([exact?.body.doc_len, exact?.body.disp_len]).toEqual([MIB, MIB]);
    expect(docs.get(1)?.status).toBe(422);
    expect(docs.get(1)?.body).toEqual({
      detail: expect.any(String),
      code: 'article_too_large',
      year: '2024',
      doc_ix: 1,
      doc_len: MIB + 1,
      limit: MIB,
    });
  });

  it('still returns a window of the oversize article without full_text', async () => {
    const windowed = (await getDocs({ max_ctx_len: 100 })).get(1);
    expect(windowed?.status).toBe(200);
    expect(windowed?.body).toMatchObject({ doc_len: MIB + 1, disp_len: 106, needle_offset: 0 });
  });
});

describe('metadata response limit of 16 MiB', () => {
  it('answers 15 references to a 1 MiB-title article and refuses 16 with 413 response_too_large', async () => {
    const ref = { year: '2024', doc_ix: 2 };
    const ok = await v2(stack.url, 'metadata', {
      index: 'news',
      expected_index_version: VERSION,
      documents: Array(15).fill(ref),
    });
    expect(ok.status).toBe(200);
    const bytes15 = Buffer.byteLength(JSON.stringify(ok.body));
    expect(bytes15).toBeLessThanOrEqual(16 * MIB);
    const over = await v2(stack.url, 'metadata', {
      index: 'news',
      expected_index_version: VERSION,
      documents: Array(16).fill(ref),
    });
    expect(over.status).toBe(413);
    const entry = Buffer.byteLength(JSON.stringify(ok.body.documents[0]));
    expect(over.body).toEqual({
      detail: expect.any(String),
      code: 'response_too_large',
      limit: 16 * MIB,
      bytes: bytes15 + entry + 1,
    });
  });
});

describe('countries filter without a country attribution table', () => {
  it('answers 503 country_attribution_unavailable, while other filters and an empty countries list work', async () => {
    const [lo, hi] = found.segment_by_shard[0] ?? [0, 0];
    const page = { ...base(), rank_from: lo, rank_to: hi, query: 'needle' };
    const refused = await v2(stack.url, 'documents', { ...page, countries: ['de'] });
    expect(refused.status).toBe(503);
    expect(refused.body).toEqual({ detail: expect.any(String), code: 'country_attribution_unavailable' });
    const other = await v2(stack.url, 'documents', { ...page, countries: [], languages: ['DE'] });
    expect(other.status).toBe(200);
    expect(other.body.documents.map((d: { metadata: { title: string } }) => d.metadata.title)).toEqual(['small']);
  });
});
