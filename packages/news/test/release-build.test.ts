import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildRelease, openRelease, type OpenRelease, type ReleaseIndex } from '../src/release/index.ts';
import { article, tempDir, writeJsonl } from './support/fixtures.ts';

const tmp = tempDir('release-build-');
afterAll(() => tmp.cleanup());
const fresh = tmp.fresh;

// Input order deliberately not chronological: doc_ix must follow (month, input order) within each year.
const records = [
  article(0, '2020-03-05T10:00:00', { publish_date: '2020-03-01' }),
  article(1, '2020-01-09'),
  article(2, '2020-03-01T23:59:59+09:00', { scores: { iptc_topic: 0.91 }, language_score: 0.5 }),
  article(3, '2021-05-05'),
  article(4, '2020-01-02'),
];

const index = (r: OpenRelease): ReleaseIndex => r.indexes.get('news') as ReleaseIndex;
const titlesByDocIx = (ix: ReleaseIndex, year: string): (string | null | undefined)[] => {
  const store = ix.metadata(year);
  return Array.from({ length: store?.docCount ?? 0 }, (_, i) => store?.get(i)?.title);
};

describe('buildRelease', () => {
  it('numbers each crawl year from 0 by (month, input order), with monthly shards at their docBase', async () => {
    const dir = fresh();
    await buildRelease({
      inputs: [writeJsonl(join(dir, 'in.jsonl'), records)],
      out: join(dir, 'r'),
      indexVersion: 'v1',
    });
    const release = await openRelease(join(dir, 'r'));
    const ix = index(release);
    expect(ix.shards.map((s) => [s.shardId, s.year, s.docBase, s.reader.stats.docCount])).toEqual([
      ['2020-01', '2020', 0, 2],
      ['2020-03', '2020', 2, 2],
      ['2021-05', '2021', 0, 1],
    ]);
    expect(titlesByDocIx(ix, '2020')).toEqual([
      'SYNTHETIC title 1',
      'SYNTHETIC title 4',
      'SYNTHETIC title 0',
      'SYNTHETIC title 2',
    ]);
    const shard = ix.shards[1];
    const loc = shard?.reader.locate(shard.reader.find(Buffer.from('article 2:')).lo);
    expect(ix.metadata('2020')?.get((shard?.docBase ?? 0) + (loc?.doc ?? -1))?.title).toBe('SYNTHETIC title 2');
    release.close();
  });

  it('gives yearly shards the same doc_ix and metadata as monthly ones', async () => {
    const dir = fresh();
    const input = writeJsonl(join(dir, 'in.jsonl'), records);
    await buildRelease({ inputs: [input], out: join(dir, 'm'), indexVersion: 'v1', period: 'month' });
    await buildRelease({ inputs: [input], out: join(dir, 'y'), indexVersion: 'v1', period: 'year' });
    const m = await openRelease(join(dir, 'm'));
    const y = await openRelease(join(dir, 'y'));
    expect(index(y).shards.map((s) => [s.shardId, s.docBase])).toEqual([
      ['2020', 0],
      ['2021', 0],
    ]);
    const year2020 = index(y).shards[0];
    const texts = Array.from({ length: 4 }, (_, d) => year2020?.reader.documentBytes(d).toString());
    expect(texts.map((t) => t?.slice(0, 20))).toEqual([1, 4, 0, 2].map((k) => `Synthetic article ${k}:`));
    for (const year of ['2020', '2021']) {
      expect(index(y).metadata(year)?.getMany([0, 1, 2, 3])).toEqual(index(m).metadata(year)?.getMany([0, 1, 2, 3]));
    }
    m.close();
    y.close();
  });

  it('stores every metadata field: v1 date from publish_date else warc_date, scores, computed hash', async () => {
    const dir = fresh();
    await buildRelease({
      inputs: [writeJsonl(join(dir, 'in.jsonl'), records)],
      out: join(dir, 'r'),
      indexVersion: 'v1',
    });
    const release = await openRelease(join(dir, 'r'));
    const store = index(release).metadata('2020');
    expect(store?.get(2)).toMatchObject({
      date: '2020-03-01',
      publish_date: '2020-03-01',
      warc_date: '2020-03-05T10:00:00',
    });
    expect(store?.get(3)).toMatchObject({
      date: '2020-03-01T23:59:59+09:00',
      scores: { iptc_topic: 0.91, language: 0.5 },
      country: null,
    });
    expect(store?.get(3)?.text_xxhash64).toMatch(/^\d+$/);
    expect(store?.get(4)).toBeUndefined();
    release.close();
  });

  it('attributes countries by hostname from the compiled table', async () => {
    const dir = fresh();
    const csv = join(dir, 'countries.csv');
    writeFileSync(
      csv,
      'hostname,country,country_source,country_confidence\nsite-1.synthetic.example,DE,"registry, manual",high\nsite-2.SYNTHETIC.example,AT,,\n',
    );
    await buildRelease({
      inputs: [writeJsonl(join(dir, 'in.jsonl'), records)],
      out: join(dir, 'r'),
      indexVersion: 'v1',
      countries: csv,
    });
    const release = await openRelease(join(dir, 'r'), { verify: 'full' });
    const ix = index(release);
    expect(ix.hasCountryAttribution).toBe(true);
    const byHost = new Map(
      ix
        .metadata('2020')
        ?.getMany([0, 1, 2, 3])
        .map((m) => [m?.hostname, [m?.country, m?.country_source, m?.country_confidence]]),
    );
    expect(byHost.get('site-1.synthetic.example')).toEqual(['DE', 'registry, manual', 'high']);
    expect(byHost.get('site-2.synthetic.example')).toEqual(['AT', null, null]);
    expect(byHost.get('site-0.synthetic.example')).toEqual([null, null, null]);
    release.close();
  });

  it('refuses a country table with conflicting rows, naming the line, and builds nothing', async () => {
    const dir = fresh();
    const csv = join(dir, 'countries.csv');
    writeFileSync(
      csv,
      'hostname,country,country_source,country_confidence\na.example,DE,,\nb.example,AT,,\nA.example,FR,,\n',
    );
    await expect(
      buildRelease({
        inputs: [writeJsonl(join(dir, 'in.jsonl'), records)],
        out: join(dir, 'r'),
        indexVersion: 'v1',
        countries: csv,
      }),
    ).rejects.toThrow(`${csv}:4: hostname a.example is listed twice with different values; keep one row`);
    expect(readdirSync(dir).sort()).toEqual(['countries.csv', 'in.jsonl']);
  });

  it('refuses an existing non-empty --out unless forced, and replaces it when forced', async () => {
    const dir = fresh();
    const input = writeJsonl(join(dir, 'in.jsonl'), records);
    mkdirSync(join(dir, 'r'));
    writeFileSync(join(dir, 'r', 'keep.txt'), 'x');
    await expect(buildRelease({ inputs: [input], out: join(dir, 'r'), indexVersion: 'v1' })).rejects.toThrow(
      /exists and is not empty; choose a new folder or pass --force/,
    );
    await buildRelease({ inputs: [input], out: join(dir, 'r'), indexVersion: 'v2', force: true });
    expect(readdirSync(join(dir, 'r')).sort()).toEqual(['index-manifest.json', 'indexes', 'metadata-manifest.json']);
    expect(readdirSync(dir).sort()).toEqual(['in.jsonl', 'r']);
    const release = await openRelease(join(dir, 'r'), { expectedIndexVersion: 'v2' });
    release.close();
  });

  it('refuses an unusable index version or index name before reading input', async () => {
    await expect(buildRelease({ inputs: ['x'], out: join(tmp.dir, 'x'), indexVersion: 'has space' })).rejects.toThrow(
      /index version "has space" is not allowed/,
    );
    await expect(
      buildRelease({ inputs: ['x'], out: join(tmp.dir, 'x'), indexVersion: 'v1', indexName: 'News' }),
    ).rejects.toThrow(/must match/);
  });
});
