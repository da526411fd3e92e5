import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parquetWriteFile } from 'hyparquet-writer';
import { afterAll, describe, expect, it } from 'vitest';
import { buildRelease, openRelease, type ReleaseIndex } from '../src/release/index.ts';
import { article, entries, tempDir, writeJsonl } from './support/fixtures.ts';

const tmp = tempDir('corpus-records-');
afterAll(() => tmp.cleanup());
const fresh = tmp.fresh;

const good = [article(1, '2021-03-04T10:00:00'), article(2, '2021-01-02'), article(3, '2022-07-01T00:00:00+02:00')];

describe('bad input records', () => {
  const cases: [string, (file: string) => void, RegExp][] = [
    ['invalid JSON', (f) => writeJsonl(f, [...good, {}], { 2: '{"text": "cut off' }), /:2: invalid JSON/],
    ['a missing text', (f) => writeJsonl(f, [...good.slice(0, 2), { warc_date: '2021-01-01' }]), /:3: missing "text"/],
    ['an empty text', (f) => writeJsonl(f, [article(9, '2021-01-01', { text: '' })]), /:1: "text" is empty/],
    [
      'a field of the wrong type',
      (f) => writeJsonl(f, [good[0], article(5, '2021-01-01', { title: 42 })]),
      /:2: "title" must be a string or null, got number/,
    ],
    [
      'an unusable warc_date',
      (f) => writeJsonl(f, [article(5, 'last tuesday')]),
      /:1: warc_date "last tuesday" is not an ISO 8601 date/,
    ],
    [
      'a missing warc_date',
      (f) => writeJsonl(f, [article(5, '2021-01-01', { warc_date: null })]),
      /:1: missing "warc_date"/,
    ],
    [
      'a text_xxhash64 that does not match',
      (f) => writeJsonl(f, [article(5, '2021-01-01', { text: 'a', text_xxhash64: '1' })]),
      /:1: text_xxhash64 1 does not match the text \(xxHash64 of its UTF-8 bytes is 15154266338359012955\)/,
    ],
  ];
  for (const [what, write, message] of cases) {
    it(`stops the build at ${what} with file:line: reason and leaves no output`, async () => {
      const dir = fresh();
      const input = join(dir, 'in.jsonl');
      write(input);
      const before = entries(dir);
      const build = buildRelease({ inputs: [input], out: join(dir, 'release'), indexVersion: 'v1' });
      await expect(build).rejects.toThrow(message);
      await expect(build).rejects.toThrow(`${input}:`);
      await expect(build).rejects.toThrow(/--skip-bad/);
      expect(entries(dir)).toEqual(before);
    });
  }

  it('skips and counts bad records with skipBad, naming each one', async () => {
    const dir = fresh();
    const input = writeJsonl(
      join(dir, 'in.jsonl.gz'),
      [good[0], { text: 5, warc_date: '2021-01-01' }, good[1], {}, good[2]],
      { 4: 'not json' },
    );
    const skipped: string[] = [];
    const summary = await buildRelease({
      inputs: [input],
      out: join(dir, 'release'),
      indexVersion: 'v1',
      skipBad: true,
      onSkip: (w) => skipped.push(w),
    });
    expect(summary.skipped).toBe(2);
    expect(summary.documents).toBe(3);
    expect(skipped).toEqual([
      `${input}:2: "text" must be a string, got number`,
      expect.stringMatching(new RegExp(`^${input}:4: invalid JSON`)),
    ]);
  });

  it('refuses to build a release without articles when every record was bad', async () => {
    const dir = fresh();
    const input = writeJsonl(join(dir, 'in.jsonl'), [{ warc_date: '2021-01-01' }]);
    await expect(
      buildRelease({ inputs: [input], out: join(dir, 'release'), indexVersion: 'v1', skipBad: true }),
    ).rejects.toThrow(/no articles in .* \(all 1 records were bad\); check the input files/);
    expect(entries(dir)).toEqual(['in.jsonl']);
  });

  it('computes text_xxhash64 when absent and accepts a matching one', async () => {
    const dir = fresh();
    const input = writeJsonl(join(dir, 'in.jsonl'), [
      article(1, '2021-01-01', { text: 'a' }),
      article(2, '2021-01-01', { text: 'a', text_xxhash64: '15154266338359012955' }),
    ]);
    await buildRelease({ inputs: [input], out: join(dir, 'release'), indexVersion: 'v1' });
    const release = await openRelease(join(dir, 'release'));
    const store = release.indexes.get('news')?.metadata('2021');
    expect(store?.getMany([0, 1, 2]).map((m) => m?.text_xxhash64)).toEqual([
      '15154266338359012955',
      '15154266338359012955',
      undefined,
    ]);
    release.close();
  });
});

describe('input discovery', () => {
  it('reads folders recursively in name order and ignores other files', async () => {
    const dir = fresh();
    mkdirSync(join(dir, 'in/b'), { recursive: true });
    writeJsonl(join(dir, 'in/b/2.jsonl'), [article(2, '2021-01-01')]);
    writeJsonl(join(dir, 'in/a.jsonl.gz'), [article(1, '2021-01-01')]);
    writeFileSync(join(dir, 'in/README.txt'), 'not input');
    await buildRelease({ inputs: [join(dir, 'in')], out: join(dir, 'release'), indexVersion: 'v1' });
    const release = await openRelease(join(dir, 'release'));
    const store = release.indexes.get('news')?.metadata('2021');
    expect([store?.get(0)?.title, store?.get(1)?.title]).toEqual(['SYNTHETIC title 1', 'SYNTHETIC title 2']);
    release.close();
  });

  it('names the file of a truncated .gz input', async () => {
    const dir = fresh();
    const whole = readFileSync(
      writeJsonl(
        join(dir, 'whole.jsonl.gz'),
        Array.from({ length: 200 }, (_, i) => article(i, '2021-01-01')),
      ),
    );
    const cut = join(dir, 'cut.jsonl.gz');
    writeFileSync(cut, whole.subarray(0, whole.length - 40));
    await expect(buildRelease({ inputs: [cut], out: join(dir, 'r'), indexVersion: 'v1' })).rejects.toThrow(
      `${cut} cannot be read after line`,
    );
    expect(entries(dir)).toEqual(['cut.jsonl.gz', 'whole.jsonl.gz']);
  });

  it('refuses a path that does not exist, saying what to pass', async () => {
    await expect(
      buildRelease({ inputs: [join(tmp.dir, 'nope')], out: join(tmp.dir, 'r'), indexVersion: 'v1' }),
    ).rejects.toThrow(/does not exist; pass existing/);
  });
});

describe('Parquet input', () => {
  const records = Array.from({ length: 23 }, (_, i) =>
    article(i, `202${i % 3}-0${1 + (i % 4)}-1${i % 9}T08:00:00`, {
      title: i % 5 === 0 ? null : `SYNTHETIC title ${i}`,
      publish_date: i % 2 ? `2020-01-0${1 + (i % 8)}` : null,
    }),
  );
  const columns = ['text', 'url', 'title', 'hostname', 'sitename', 'language', 'warc_date', 'publish_date'];

  it('gives the same release as the same records in JSONL', async () => {
    const dir = fresh();
    writeJsonl(join(dir, 'in.jsonl'), records);
    parquetWriteFile({
      filename: join(dir, 'in.parquet'),
      columnData: columns.map((name) => ({
        name,
        data: records.map((r) => (r[name] ?? null) as string | null),
        type: 'STRING' as const,
      })),
      rowGroupSize: 5,
    });
    await buildRelease({ inputs: [join(dir, 'in.jsonl')], out: join(dir, 'from-jsonl'), indexVersion: 'v1' });
    await buildRelease({ inputs: [join(dir, 'in.parquet')], out: join(dir, 'from-parquet'), indexVersion: 'v1' });
    const a = await openRelease(join(dir, 'from-jsonl'), { verify: 'full' });
    const b = await openRelease(join(dir, 'from-parquet'), { verify: 'full' });
    const describeIndex = (ix: ReleaseIndex | undefined) =>
      ix?.shards.map((s) => ({
        shard: s.shardId,
        docBase: s.docBase,
        docs: Array.from({ length: s.reader.stats.docCount }, (_, d) => s.reader.documentBytes(d).toString('utf8')),
        metadata: Array.from({ length: s.reader.stats.docCount }, (_, d) => ix.metadata(s.year)?.get(s.docBase + d)),
      }));
    expect(describeIndex(b.indexes.get('news'))).toEqual(describeIndex(a.indexes.get('news')));
    expect(b.indexes.get('news')?.shards.length).toBeGreaterThan(3);
    a.close();
    b.close();
  });

  it('reports a bad row by its row number', async () => {
    const dir = fresh();
    const bad = records.map((r, i) => (i === 7 ? { ...r, warc_date: 'soon' } : r));
    parquetWriteFile({
      filename: join(dir, 'bad.parquet'),
      columnData: columns.map((name) => ({
        name,
        data: bad.map((r) => (r[name] ?? null) as string | null),
        type: 'STRING' as const,
      })),
      rowGroupSize: 5,
    });
    await expect(
      buildRelease({ inputs: [join(dir, 'bad.parquet')], out: join(dir, 'r'), indexVersion: 'v1' }),
    ).rejects.toThrow(`${join(dir, 'bad.parquet')}:row 8: warc_date "soon" is not an ISO 8601 date`);
  });
});
