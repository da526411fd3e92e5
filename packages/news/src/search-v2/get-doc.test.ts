import { beforeAll, describe, expect, it } from 'vitest';
import type { OpenRelease } from '../release/types.ts';
import { find, getDoc, V2_LIMITS } from './index.ts';
import { ARTICLES, VERSION } from './continuations.fixture.ts';
import { buildMemoryRelease } from './memory-release.fixture.ts';
import { errorOf } from './v2-error.fixture.ts';

let release: OpenRelease;
beforeAll(async () => {
  release = await buildMemoryRelease(ARTICLES, { indexVersion: VERSION });
});

const base = { index: 'news', expected_index_version: VERSION };

async function firstRank(rel: OpenRelease, query: string, shardId: string): Promise<number> {
  const found = await find(rel, { index: 'news', query });
  return found.segment_by_shard[found.shard_ids.indexOf(shardId)]?.[0] ?? -1;
}

describe('get_doc', () => {
  it('returns the window with byte lengths, spans, full metadata and where the rank lives', async () => {
    const rank = await firstRank(release, 'ベルリン', '2017-01');
    const doc = getDoc(release, { ...base, query: 'ベルリン', shard_id: '2017-01', rank, max_ctx_len: 3 });
    expect(doc).toMatchObject({
      index_version: VERSION,
      year: '2017',
      shard_id: '2017-01',
      rank,
      doc_ix: 1,
      text: 'とベルリン、',
    });
    expect(doc.doc_len).toBe(Buffer.byteLength('東京とベルリン、Berlin'));
    expect(doc.disp_len).toBe(Buffer.byteLength(doc.text));
    expect(doc.needle_offset).toBe(3);
    expect(doc.spans).toEqual([
      ['と', null],
      ['ベルリン', '0'],
      ['、', null],
    ]);
    expect(doc.metadata.language).toBe('ja');
  });

  it('defaults to 1000 bytes of context and returns the whole article with full_text', async () => {
    const rank = await firstRank(release, 'Berlin', '2016-05');
    const windowed = getDoc(release, { ...base, query: 'Berlin', shard_id: '2016-05', rank });
    expect(windowed.text.length).toBeGreaterThan(0);
    const full = getDoc(release, {
      ...base,
      query: 'Berlin',
      shard_id: '2016-05',
      rank,
      full_text: true,
      max_ctx_len: 1,
    });
    expect(full.disp_len).toBe(full.doc_len);
    expect(full.spans.filter(([, tag]) => tag === '0')).toHaveLength(full.doc_ix === 0 ? 2 : 1);
  });

  it('returns a 1 MiB article in full and answers 422 article_too_large one byte over', async () => {
    const limit = V2_LIMITS.fullTextBytes;
    const big = await buildMemoryRelease(
      [
        { shard: '2020-01', text: 'needle' + 'x'.repeat(limit - 6) },
        { shard: '2020-01', text: 'needle' + 'y'.repeat(limit - 5) },
      ],
      { indexVersion: VERSION },
    );
    const [lo, hi] = (await find(big, { index: 'news', query: 'needle' })).segment_by_shard[0] ?? [0, 0];
    const results = [];
    for (let rank = lo; rank < hi; rank++) {
      try {
        results.push(getDoc(big, { ...base, query: 'needle', shard_id: '2020-01', rank, full_text: true }).doc_len);
      } catch (e) {
        results.push((e as { toBody(): unknown }).toBody());
      }
    }
    expect(results).toContainEqual(limit);
    expect(results).toContainEqual({
      detail: expect.any(String),
      code: 'article_too_large',
      year: '2020',
      doc_ix: 1,
      doc_len: limit + 1,
      limit,
    });
    // Without full_text the large article is still readable as a window.
    expect(
      getDoc(big, { ...base, query: 'needle', shard_id: '2020-01', rank: lo, max_ctx_len: 10 }).disp_len,
    ).toBeLessThanOrEqual(26);
  });

  it('answers 422 rank_out_of_range for a rank just outside the query interval', async () => {
    const found = await find(release, { index: 'news', query: 'Berlin' });
    const [lo, hi] = found.segment_by_shard[0] ?? [0, 0];
    expect(
      getDoc(release, { ...base, query: 'Berlin', shard_id: '2016-05', rank: hi - 1 }).doc_ix,
    ).toBeGreaterThanOrEqual(0);
    for (const rank of [lo - 1, hi]) {
      const err = errorOf(() => getDoc(release, { ...base, query: 'Berlin', shard_id: '2016-05', rank }));
      expect(err.toBody()).toMatchObject({ code: 'rank_out_of_range', rank, interval_lo: lo, interval_hi: hi });
    }
  });

  it('answers 409 for a stale version and 503 when the year store is missing', async () => {
    expect(
      errorOf(() =>
        getDoc(release, { ...base, expected_index_version: 'old', query: 'Berlin', shard_id: '?', rank: -1 }),
      ).status,
    ).toBe(409);
    const broken = await buildMemoryRelease(ARTICLES, { indexVersion: VERSION, missingYears: ['2016'] });
    const rank = await firstRank(broken, 'Berlin', '2016-05');
    const err = errorOf(() => getDoc(broken, { ...base, query: 'Berlin', shard_id: '2016-05', rank }));
    expect([err.code, err.status]).toEqual(['year_store_missing', 503]);
  });
});
