import { beforeAll, describe, expect, it } from 'vitest';
import type { OpenRelease } from '../release/types.ts';
import { count, describeRelease, find } from './index.ts';
import { ARTICLES, VERSION } from './continuations.fixture.ts';
import { bruteForceOffsets, buildMemoryRelease } from './memory-release.fixture.ts';
import { rejectionOf } from './v2-error.fixture.ts';

let release: OpenRelease;
beforeAll(async () => {
  release = await buildMemoryRelease(ARTICLES, { indexVersion: VERSION });
});

const bruteCount = (query: string, years: (y: number) => boolean = () => true) =>
  ARTICLES.filter((a) => years(Number(a.shard.slice(0, 4)))).reduce(
    (n, a) => n + bruteForceOffsets(a.text, query).length,
    0,
  );

describe('find and count', () => {
  it('returns one interval per shard in chronological order with ids, years, version and the total', async () => {
    const found = await find(release, { index: 'news', query: 'Berlin' });
    expect(found.shard_ids).toEqual(['2016-05', '2016-06', '2017-01']);
    expect(found.shard_years).toEqual(['2016', '2016', '2017']);
    expect(found.segment_by_shard.map(([lo, hi]) => hi - lo)).toEqual([3, 2, 2]);
    expect(found).toMatchObject({ index_version: VERSION, total_occurrences: bruteCount('Berlin') });
  });

  it('limits both to the inclusive crawl-year range', async () => {
    const found = await find(release, { index: 'news', query: 'Berlin', year_min: 2017, year_max: 2017 });
    expect(found.shard_ids).toEqual(['2017-01']);
    expect(await count(release, { index: 'news', query: 'Berlin', year_max: 2016 })).toEqual({
      index_version: VERSION,
      count: bruteCount('Berlin', (y) => y <= 2016),
    });
    expect((await find(release, { index: 'news', query: 'Berlin', year_min: 2018 })).segment_by_shard).toEqual([]);
  });

  it('counts byte-exact, case-sensitive, overlapping matches; the empty query counts text bytes', async () => {
    for (const q of ['Berlin', 'berlin', 'r', 'ß', 'ベルリン', 'Berlin!', 'BerlinBerlin']) {
      expect((await count(release, { index: 'news', query: q })).count).toBe(bruteCount(q));
    }
    expect((await count(release, { index: 'news', query: '' })).count).toBe(
      ARTICLES.reduce((n, a) => n + Buffer.byteLength(a.text), 0),
    );
  });

  it('refuses year_min above year_max, an empty find query and an unknown index', async () => {
    expect(
      (await rejectionOf(() => find(release, { index: 'news', query: 'a', year_min: 2017, year_max: 2016 }))).code,
    ).toBe('invalid_year_range');
    expect((await rejectionOf(() => find(release, { index: 'news', query: '' }))).code).toBe('invalid_query');
    expect((await rejectionOf(() => count(release, { index: 'nope', query: 'a' }))).toBody()).toMatchObject({
      code: 'unknown_index',
      index: 'nope',
    });
  });
});

describe('describeRelease (v2 info)', () => {
  it('reports what is loaded: documents, date range of the shards, each shard and the indexes', async () => {
    expect(describeRelease(release)).toEqual({
      name: 'news',
      index_version: VERSION,
      document_count: ARTICLES.length,
      date_range: { first: '2016-05', last: '2017-01' },
      shards: [
        { shard_id: '2016-05', year: '2016', documents: 2, bytes: expect.any(Number) },
        { shard_id: '2016-06', year: '2016', documents: 1, bytes: expect.any(Number) },
        { shard_id: '2017-01', year: '2017', documents: 2, bytes: expect.any(Number) },
      ],
      available_indexes: ['news'],
      filters: expect.any(Object),
    });
    const bytes = describeRelease(release).shards.reduce((n, s) => n + s.bytes, 0);
    expect(bytes).toBe(ARTICLES.reduce((n, a) => n + 1 + Buffer.byteLength(a.text), 0));
  });
});
