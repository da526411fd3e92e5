import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { ArticleMetadata, FilterFields } from './types.ts';
import { createYearStoreWriter, openMetadataStore } from './index.ts';
import { rowToMetadata, type Row } from './row-to-metadata.ts';
import { BLOCK_ROWS, READ_COLUMNS } from './schema.ts';
import { writeStoreV2 } from './v2-store.fixture.ts';
import { ARTICLE_COLUMNS, CREATE_STORE_V1_SQL } from './schema-v1.ts';

const dir = mkdtempSync(join(tmpdir(), 'metadata-writer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let run = 0;

const text = fc.option(fc.string({ maxLength: 12 }), { nil: null });
const pad = (n: number, w: number) => String(n).padStart(w, '0');
// Dates in the encoded shape (pre-1970, fractions with leading zeros, every zone form) and near misses that stay text.
const date = fc.oneof(
  fc
    .record({
      y: fc.integer({ min: 990, max: 9999 }),
      mo: fc.integer({ min: 1, max: 13 }),
      d: fc.integer({ min: 1, max: 31 }),
      s: fc.integer({ min: 0, max: 86399 }),
      frac: fc.constantFrom('', '.79', '.05', '.000000', '.986279', '.1234567'),
      zone: fc.constantFrom(
        '',
        'Z',
        '+09:00',
        '-00:00',
        '+00:00',
        '+05:45',
        '-03:30',
        '+14:00',
        '-14:15',
        '+01:60',
        '+05:07',
      ),
    })
    .map(
      (r) =>
        `${pad(r.y, 4)}-${pad(r.mo, 2)}-${pad(r.d, 2)}T${pad(Math.floor(r.s / 3600), 2)}:${pad(Math.floor(r.s / 60) % 60, 2)}:${pad(r.s % 60, 2)}${r.frac}${r.zone}`,
    ),
  fc.constantFrom('0', '2019', '1987-02-26 15:01:01', '2019-03-01T10:00:00z', ''),
);
const hex = (n: number) => fc.stringMatching(new RegExp(`^[0-9a-f]{${n}}$`));
// Record ids in the compact form (lower-case urn:uuid) and every near miss that must stay text.
const recordId = fc.oneof(
  fc.tuple(hex(8), hex(4), hex(4), hex(4), hex(12)).map((p) => `<urn:uuid:${p.join('-')}>`),
  fc.constantFrom(
    '<urn:uuid:864938D1-9111-5FD3-93AE-DD697C7489D5>',
    'urn:uuid:864938d1-9111-5fd3-93ae-dd697c7489d5',
    '',
  ),
  text,
);
const host = fc.constantFrom('example.org', 'www.example.de', 'news.livedoor.com');
const metadataArb: fc.Arbitrary<ArticleMetadata> = fc
  .record({
    hostname: fc.option(host, { nil: null }),
    path: fc.constantFrom('/a/1', '', '?q=1', ':8080/x', 'x/y'),
    scheme: fc.constantFrom('http://', 'https://', 'ftp://', ''),
    urlHost: host,
    warc: fc.option(date, { nil: null }),
    publish: fc.option(date, { nil: null }),
    sameDate: fc.boolean(),
    id: recordId,
    hash: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
    scores: fc.option(
      fc.dictionary(
        fc.string({ minLength: 1, maxLength: 5 }),
        fc.double({ noNaN: true, noDefaultInfinity: true }).map((x) => x + 0),
      ),
      { nil: null },
    ), // JSON has no -0
    title: text,
    author: text,
    sitename: text,
    topic: fc.option(fc.constantFrom('sport', 'cocoa'), { nil: null }),
    language: fc.option(fc.constantFrom('de', 'en', 'ja'), { nil: null }),
    other: text,
  })
  .map((r) => {
    const publish = r.sameDate ? r.warc : r.publish;
    return {
      url: r.scheme === '' && r.path === '' ? null : `${r.scheme}${r.urlHost}${r.path}`,
      title: r.title,
      author: r.author,
      sitename: r.sitename,
      hostname: r.hostname,
      warc_source: r.other,
      warc_record_id: r.id,
      warc_date: r.warc,
      publish_date: publish,
      date: publish ?? r.warc,
      date_source: r.other,
      language: r.language,
      lang: r.language,
      country_tld: r.other,
      country: r.other,
      country_source: null,
      country_confidence: r.other,
      iptc_topic: r.topic,
      scores: r.scores,
      text_xxhash64: r.hash.toString(),
    };
  });

async function writeStore(articles: readonly ArticleMetadata[], shardSplit: number): Promise<string> {
  const path = join(dir, `store-${run++}.sqlite`);
  const writer = createYearStoreWriter(path, `${path}.staging`, '2019');
  articles.forEach((metadata, localDoc) => writer.add({ month: 3, localDoc, textBytes: 10, metadata }));
  const split = Math.min(shardSplit, articles.length);
  await writer.finish(
    [
      { month: 3, localFrom: 0, docBase: 0, docCount: split, shardId: '2019-03.p000' },
      { month: 3, localFrom: split, docBase: split, docCount: articles.length - split, shardId: '2019-03.p001' },
    ].filter((p) => p.docCount > 0),
    'v',
  );
  return path;
}

const filterFieldsOf = (m: FilterFields): FilterFields => ({
  language: m.language,
  lang: m.lang,
  iptc_topic: m.iptc_topic,
  hostname: m.hostname,
  sitename: m.sitename,
  country: m.country,
});

function insertMeta(db: Database.Database, version: number, docCount: number): void {
  const meta = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
  for (const [k, v] of [
    ['format', 'news-metadata-store'],
    ['format_version', String(version)],
    ['year', '2019'],
    ['doc_count', String(docCount)],
    ['index_version', 'v'],
  ])
    meta.run(k, v);
}

/** An older store gives the same answers as the current format written from the same articles, and those articles. */
async function expectSameAsCurrent(path: string, articles: readonly ArticleMetadata[]): Promise<void> {
  const old = openMetadataStore(path, { year: '2019', docCount: articles.length, indexVersion: 'v' });
  const current = openMetadataStore(await writeStore(articles, 25), {
    year: '2019',
    docCount: articles.length,
    indexVersion: 'v',
  });
  const ids = [...articles.keys(), articles.length, -1];
  expect(old.getMany(ids)).toEqual(current.getMany(ids));
  expect(old.getMany(ids).slice(0, articles.length)).toEqual(articles);
  expect(articles.map((_, i) => old.get(i))).toEqual(articles);
  expect(articles.map((_, i) => old.filterFields(i) && filterFieldsOf(old.filterFields(i)!))).toEqual(
    articles.map((_, i) => current.filterFields(i)),
  );
  for (const f of ['language', 'lang', 'iptc_topic', 'hostname', 'sitename', 'country'] as const)
    expect(old.hasValues(f)).toBe(current.hasValues(f));
  old.close();
  current.close();
}

describe('metadata store format 3', () => {
  it('gives back every article exactly as written (urls, record ids, dates, hashes, scores), one by one and in pages', async () => {
    // Up to 3 blocks of BLOCK_ROWS, so rows cross block boundaries and the last block is short.
    await fc.assert(
      fc.asyncProperty(
        fc.array(metadataArb, { minLength: 1, maxLength: 3 * BLOCK_ROWS }),
        fc.nat(100),
        async (articles, split) => {
          const store = openMetadataStore(await writeStore(articles, split), {
            year: '2019',
            docCount: articles.length,
          });
          expect(articles.map((_, i) => store.get(i))).toEqual(articles);
          expect([-1, ...articles.keys(), articles.length].map((i) => store.filterFields(i))).toEqual([
            undefined,
            ...articles.map(filterFieldsOf),
            undefined,
          ]);
          expect(store.getMany(articles.map((_, i) => i).reverse())).toEqual([...articles].reverse());
          const ixs = [0, articles.length - 1, articles.length, -1, 0.5, Math.floor(articles.length / 2), 0];
          expect(store.getMany(ixs)).toEqual(ixs.map((d) => articles[d]));
          for (const f of ['language', 'iptc_topic', 'hostname', 'sitename', 'country'] as const) {
            expect(store.hasValues(f)).toBe(articles.some((a) => a[f] !== null && a[f] !== ''));
          }
          store.close();
        },
      ),
      { numRuns: 25 },
    );
  });

  it('keeps the doc_ix range of every shard in the shards table', async () => {
    const articles = fc.sample(metadataArb, { numRuns: 7, seed: 1 });
    const db = new Database(await writeStore(articles, 3), { readonly: true });
    expect(db.prepare('SELECT doc_base, doc_count, shard_id FROM shards ORDER BY doc_base').raw(true).all()).toEqual([
      [0, 3, '2019-03.p000'],
      [3, 4, '2019-03.p001'],
    ]);
    db.close();
  });

  it('compresses a store of many similar rows in blocks with a trained dictionary', async () => {
    const articles = fc.sample(metadataArb, { numRuns: 2000, seed: 5 });
    const path = await writeStore(articles, 1000);
    const db = new Database(path, { readonly: true });
    expect((db.prepare('SELECT bytes FROM dictionary').pluck().get() as Buffer).length).toBeGreaterThan(0);
    expect(db.prepare('SELECT count(*) FROM blocks').pluck().get()).toBe(Math.ceil(2000 / BLOCK_ROWS));
    db.close();
    const store = openMetadataStore(path, { year: '2019', docCount: 2000 });
    expect(store.getMany(articles.map((_, i) => i))).toEqual(articles);
    store.close();
  });

  it('refuses a block that does not decode, naming the file', async () => {
    const articles = fc.sample(metadataArb, { numRuns: 40, seed: 9 });
    const path = await writeStore(articles, 40);
    const db = new Database(path);
    db.prepare('UPDATE blocks SET rows = ? WHERE block = 1').run(Buffer.from('not zstd'));
    db.close();
    const store = openMetadataStore(path, { year: '2019' });
    expect(store.get(0)).toEqual(articles[0]);
    expect(() => store.get(BLOCK_ROWS)).toThrow(
      /metadata store .* has a block 1 that does not decode .*; rebuild the release/,
    );
    store.close();
  });
});

describe('metadata store format 3, damaged', () => {
  it('is refused at open without block_rows or its dictionary, naming the file and what to do', async () => {
    for (const [sql, message] of [
      [
        "UPDATE meta SET value = 'x' WHERE key = 'block_rows'",
        /has block_rows x, expected a positive integer; rebuild the release/,
      ],
      ['DELETE FROM dictionary', /has no zstd dictionary row; rebuild the release/],
    ] as const) {
      const path = await writeStore(fc.sample(metadataArb, { numRuns: 3, seed: 2 }), 1);
      const db = new Database(path);
      db.exec(sql);
      db.close();
      expect(() => openMetadataStore(path, { year: '2019' })).toThrow(message);
    }
  });
});

describe('metadata store format 2 (releases built before format 3)', () => {
  it('is read with the same answers as format 3', async () => {
    const articles = fc.sample(metadataArb, { numRuns: 40, seed: 4 });
    const v2 = join(dir, 'v2.sqlite');
    writeStoreV2(v2, articles, '2019', 'v');
    const db = new Database(v2, { readonly: true });
    // The articles view decodes the same values in SQL.
    expect(
      (
        db
          .prepare(`SELECT ${READ_COLUMNS.join(', ')} FROM articles ORDER BY doc_ix`)
          .raw(true)
          .all() as Row[]
      ).map(rowToMetadata),
    ).toEqual(articles);
    db.close();
    await expectSameAsCurrent(v2, articles);
  });
});

describe('metadata store format 1 (releases built before format 2)', () => {
  it('is read with the same answers as format 3', async () => {
    const articles = fc.sample(metadataArb, { numRuns: 25, seed: 7 });
    // A store as the format-1 writer left it: every field as text in one articles table.
    const v1 = join(dir, 'v1.sqlite');
    const db = new Database(v1);
    db.exec(CREATE_STORE_V1_SQL);
    const insert = db.prepare(
      `INSERT INTO articles (doc_ix, ${ARTICLE_COLUMNS.join(', ')}) VALUES (${['?', ...ARTICLE_COLUMNS.map(() => '?')].join(', ')})`,
    );
    articles.forEach((a, i) =>
      insert.run(
        i,
        ...ARTICLE_COLUMNS.map((c) => {
          if (c === 'scores') return a.scores ? JSON.stringify(a.scores) : null;
          if (c === 'text_bytes') return 10;
          return c === 'shard_id' ? '2019-03' : a[c];
        }),
      ),
    );
    insertMeta(db, 1, articles.length);
    db.close();
    await expectSameAsCurrent(v1, articles);
  });

  it('is refused with the versions this build reads when the version is unknown', async () => {
    const path = await writeStore(fc.sample(metadataArb, { numRuns: 2, seed: 3 }), 1);
    const db = new Database(path);
    db.pragma('user_version = 9');
    db.prepare("UPDATE meta SET value = '9' WHERE key = 'format_version'").run();
    db.close();
    expect(() => openMetadataStore(path, { year: '2019' })).toThrow(
      /has format version 9, this build reads 1, 2, 3; rebuild the release/,
    );
  });
});
