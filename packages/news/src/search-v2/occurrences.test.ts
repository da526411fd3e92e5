import { beforeAll, describe, expect, it } from 'vitest';
import type { OpenRelease } from '../release/types.ts';
import { find, occurrences, occurrencesJson, V2_LIMITS } from './index.ts';
import { ARTICLES, VERSION } from './continuations.fixture.ts';
import { bruteForceOffsets, buildMemoryRelease } from './memory-release.fixture.ts';
import { rejectionOf } from './v2-error.fixture.ts';

let release: OpenRelease;
beforeAll(async () => {
  release = await buildMemoryRelease(ARTICLES, { indexVersion: VERSION });
});

const base = { index: 'news', expected_index_version: VERSION };

describe('occurrences', () => {
  it('resolves every rank of the query interval to the (year, doc_ix, offset) a brute-force scan finds', async () => {
    const found = await find(release, { index: 'news', query: 'Berlin' });
    const resolved = (
      await Promise.all(
        found.shard_ids.map(async (shardId, i) => {
          const [lo, hi] = found.segment_by_shard[i] ?? [0, 0];
          return (
            await occurrences(release, { ...base, shard_id: shardId, rank_from: lo, rank_to: hi, query: 'Berlin' })
          ).occurrences;
        }),
      )
    ).flat();
    const docIxInYear = new Map<string, number>();
    const expected = ARTICLES.flatMap((a) => {
      const year = a.shard.slice(0, 4);
      const docIx = docIxInYear.get(year) ?? 0;
      docIxInYear.set(year, docIx + 1);
      return bruteForceOffsets(a.text, 'Berlin').map((offset) => `${year}/${docIx}/${offset}`);
    });
    expect(resolved.map((o) => `${o.year}/${o.doc_ix}/${o.offset}`).sort()).toEqual(expected.sort());
    expect(found.total_occurrences).toBe(expected.length);
  });

  it('reports page_occurrences for exactly [rank_from, rank_to) and echoes the range', async () => {
    const page = await occurrences(release, { ...base, shard_id: '2016-05', rank_from: 3, rank_to: 7 });
    expect(page).toMatchObject({
      index_version: VERSION,
      shard_id: '2016-05',
      rank_from: 3,
      rank_to: 7,
      page_occurrences: 4,
    });
    expect(page.occurrences.map((o) => o.rank)).toEqual([3, 4, 5, 6]);
  });

  it('accepts an empty range', async () => {
    expect(
      (await occurrences(release, { ...base, shard_id: '2016-05', rank_from: 5, rank_to: 5 })).occurrences,
    ).toEqual([]);
  });

  it('returns stale_index_version (409) before looking at the shard or the ranks', async () => {
    const err = await rejectionOf(() =>
      occurrences(release, { ...base, expected_index_version: 'old', shard_id: 'nope', rank_from: -5, rank_to: 1e9 }),
    );
    expect(err.status).toBe(409);
    expect(err.toBody()).toEqual({
      detail: expect.any(String),
      code: 'stale_index_version',
      expected_index_version: 'old',
      index_version: VERSION,
    });
  });

  it('accepts rank_to equal to the shard size and refuses one past it', async () => {
    const size = release.indexes.get('news')?.shards[0]?.reader.stats.textBytes ?? 0;
    expect(
      (await occurrences(release, { ...base, shard_id: '2016-05', rank_from: 0, rank_to: size })).page_occurrences,
    ).toBe(size);
    const err = await rejectionOf(() =>
      occurrences(release, { ...base, shard_id: '2016-05', rank_from: 0, rank_to: size + 1 }),
    );
    expect([err.code, err.status, err.context.shard_size]).toEqual(['rank_out_of_range', 422, size]);
  });

  it('requires the range to lie inside the query interval when a query is given', async () => {
    const [lo, hi] = (await find(release, { index: 'news', query: 'Berlin' })).segment_by_shard[0] ?? [0, 0];
    expect(
      (await occurrences(release, { ...base, shard_id: '2016-05', rank_from: lo, rank_to: hi, query: 'Berlin' }))
        .page_occurrences,
    ).toBe(hi - lo);
    for (const [from, to] of [
      [lo - 1, hi],
      [lo, hi + 1],
    ] as const) {
      const err = await rejectionOf(() =>
        occurrences(release, { ...base, shard_id: '2016-05', rank_from: from, rank_to: to, query: 'Berlin' }),
      );
      expect(err.toBody()).toMatchObject({ code: 'rank_out_of_range', interval_lo: lo, interval_hi: hi });
    }
  });

  it('refuses a reversed range, an unknown shard and an unknown index', async () => {
    expect(
      (await rejectionOf(() => occurrences(release, { ...base, shard_id: '2016-05', rank_from: 4, rank_to: 3 }))).code,
    ).toBe('rank_out_of_range');
    expect(
      (await rejectionOf(() => occurrences(release, { ...base, shard_id: '2099-01', rank_from: 0, rank_to: 1 }))).code,
    ).toBe('unknown_shard');
    expect(
      (
        await rejectionOf(() =>
          occurrences(release, { ...base, index: 'other', shard_id: '2016-05', rank_from: 0, rank_to: 1 }),
        )
      ).code,
    ).toBe('unknown_index');
  });
});

describe('occurrencesJson', () => {
  it('is the JSON text of occurrences, byte for byte, for every page shape', async () => {
    const found = await find(release, { index: 'news', query: 'Berlin' });
    const size = release.indexes.get('news')?.shards[0]?.reader.stats.textBytes ?? 0;
    const requests = [
      ...found.shard_ids.map((shardId, i) => {
        const [lo, hi] = found.segment_by_shard[i] ?? [0, 0];
        return { ...base, shard_id: shardId, rank_from: lo, rank_to: hi, query: 'Berlin' };
      }),
      { ...base, shard_id: '2016-05', rank_from: 0, rank_to: size },
      { ...base, shard_id: '2016-05', rank_from: 5, rank_to: 5 },
    ];
    for (const r of requests)
      expect(await occurrencesJson(release, r)).toBe(JSON.stringify(await occurrences(release, r)));
  });

  it('refuses what occurrences refuses, with the same error', async () => {
    const bad = { ...base, shard_id: '2016-05', rank_from: 4, rank_to: 3 };
    expect((await rejectionOf(() => occurrencesJson(release, bad))).toBody()).toEqual(
      (await rejectionOf(() => occurrences(release, bad))).toBody(),
    );
  });
});

describe('occurrences limit of 50,000 ranks', () => {
  it('resolves exactly 50,000 ranks and refuses 50,001', async () => {
    const big = await buildMemoryRelease([{ shard: '2020-01', text: 'x'.repeat(V2_LIMITS.occurrencesRanks + 10) }], {
      indexVersion: VERSION,
    });
    const ok = await occurrences(big, {
      ...base,
      shard_id: '2020-01',
      rank_from: 1,
      rank_to: 1 + V2_LIMITS.occurrencesRanks,
      query: 'x',
    });
    expect(ok.occurrences).toHaveLength(50_000);
    const err = await rejectionOf(() =>
      occurrences(big, { ...base, shard_id: '2020-01', rank_from: 0, rank_to: 50_001, query: 'x' }),
    );
    expect([err.code, err.status, err.context.limit]).toEqual(['too_many_ranks', 422, 50_000]);
  });
});
