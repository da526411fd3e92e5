import { beforeAll, describe, expect, it } from 'vitest';
import type { OpenRelease } from '../release/types.ts';
import { metadata, metadataJson, V2_LIMITS } from './index.ts';
import { ARTICLES, VERSION } from './continuations.fixture.ts';
import { buildMemoryRelease } from './memory-release.fixture.ts';
import { errorOf } from './v2-error.fixture.ts';

let release: OpenRelease;
beforeAll(async () => {
  release = await buildMemoryRelease(ARTICLES, { indexVersion: VERSION });
});

const base = { index: 'news', expected_index_version: VERSION };

describe('metadata', () => {
  it('returns one entry per reference in request order, repeats included', () => {
    const refs = [
      { year: '2017', doc_ix: 1 },
      { year: '2016', doc_ix: 0 },
      { year: '2017', doc_ix: 0 },
      { year: '2016', doc_ix: 0 },
    ];
    const result = metadata(release, { ...base, documents: refs });
    expect(result.index_version).toBe(VERSION);
    expect(result.documents.map((d) => [d.year, d.doc_ix, d.metadata.language])).toEqual([
      ['2017', 1, 'ja'],
      ['2016', 0, 'de'],
      ['2017', 0, 'en'],
      ['2016', 0, 'de'],
    ]);
  });

  it('returns complete structured metadata, scores and the hash as a string included', () => {
    const entry = metadata(release, { ...base, documents: [{ year: '2016', doc_ix: 2 }] }).documents[0];
    expect(Object.keys(entry?.metadata ?? {}).sort()).toEqual(
      [
        'author',
        'country',
        'country_confidence',
        'country_source',
        'country_tld',
        'date',
        'date_source',
        'hostname',
        'iptc_topic',
        'lang',
        'language',
        'publish_date',
        'scores',
        'sitename',
        'text_xxhash64',
        'title',
        'url',
        'warc_date',
        'warc_record_id',
        'warc_source',
      ].sort(),
    );
    expect(typeof entry?.metadata.text_xxhash64).toBe('string');
  });

  it('gives the same response as JSON text, encoded once', () => {
    const request = {
      ...base,
      documents: [
        { year: '2017', doc_ix: 1 },
        { year: '2016', doc_ix: 2 },
      ],
    };
    expect(metadataJson(release, request)).toBe(JSON.stringify(metadata(release, request)));
  });

  it('accepts an empty list', () => {
    expect(metadata(release, { ...base, documents: [] }).documents).toEqual([]);
  });

  it('answers 422 invalid_doc_ix just past the last article of a year, naming the reference', () => {
    expect(metadata(release, { ...base, documents: [{ year: '2016', doc_ix: 2 }] }).documents).toHaveLength(1);
    for (const docIx of [3, -1, 1.5]) {
      const err = errorOf(() =>
        metadata(release, {
          ...base,
          documents: [
            { year: '2016', doc_ix: 0 },
            { year: '2016', doc_ix: docIx },
          ],
        }),
      );
      expect(err.status).toBe(422);
      expect(err.toBody()).toMatchObject({
        code: 'invalid_doc_ix',
        position: 1,
        year: '2016',
        doc_ix: docIx,
        doc_count: 3,
      });
    }
  });

  it('answers 404 unknown_year for a well-formed year the release does not have', () => {
    const err = errorOf(() =>
      metadata(release, {
        ...base,
        documents: [
          { year: '2016', doc_ix: 0 },
          { year: '1999', doc_ix: 0 },
        ],
      }),
    );
    expect([err.status, err.toBody()]).toEqual([
      404,
      { detail: expect.stringContaining('2016, 2017'), code: 'unknown_year', year: '1999' },
    ]);
  });

  it('answers 422 invalid_year for a year that is not four digits', () => {
    for (const year of ['x', '', '216', '20160', ' 2016']) {
      const err = errorOf(() => metadata(release, { ...base, documents: [{ year, doc_ix: 0 }] }));
      expect([err.status, err.toBody()]).toEqual([
        422,
        { detail: expect.stringContaining('not a crawl year'), code: 'invalid_year', year },
      ]);
    }
  });

  it('answers 503 year_store_missing when a requested year store is missing', async () => {
    const broken = await buildMemoryRelease(ARTICLES, { indexVersion: VERSION, missingYears: ['2017'] });
    expect(metadata(broken, { ...base, documents: [{ year: '2016', doc_ix: 0 }] }).documents).toHaveLength(1);
    const err = errorOf(() =>
      metadata(broken, {
        ...base,
        documents: [
          { year: '2016', doc_ix: 0 },
          { year: '2017', doc_ix: 0 },
        ],
      }),
    );
    expect([err.status, err.toBody()]).toEqual([
      503,
      { detail: expect.any(String), code: 'year_store_missing', year: '2017' },
    ]);
  });

  it('answers 409 for a stale version before checking references', () => {
    const err = errorOf(() =>
      metadata(release, { ...base, expected_index_version: 'rel-old', documents: [{ year: 'x', doc_ix: -1 }] }),
    );
    expect(err.toBody()).toEqual({
      detail: expect.any(String),
      code: 'stale_index_version',
      expected_index_version: 'rel-old',
      index_version: VERSION,
    });
  });

  it('resolves 1,000 references and refuses 1,001', () => {
    const refs = Array.from({ length: V2_LIMITS.metadataReferences }, (_, i) => ({ year: '2016', doc_ix: i % 3 }));
    expect(metadata(release, { ...base, documents: refs }).documents).toHaveLength(1000);
    const err = errorOf(() => metadata(release, { ...base, documents: [...refs, { year: '2016', doc_ix: 0 }] }));
    expect([err.code, err.status, err.context.limit]).toEqual(['too_many_references', 422, 1000]);
  });

  it('answers 413 response_too_large when the encoded response would pass 16 MiB, and serves it at exactly 16 MiB', async () => {
    // One article whose title makes the encoded response land exactly on the limit, then one byte over it.
    const sized = async (titleBytes: number) =>
      buildMemoryRelease([{ shard: '2020-01', text: 'x', meta: { title: 'a'.repeat(titleBytes) } }], {
        indexVersion: VERSION,
      });
    const request = { ...base, documents: [{ year: '2020', doc_ix: 0 }] };
    const probe = Buffer.byteLength(JSON.stringify(metadata(await sized(0), request)));
    const atLimit = V2_LIMITS.metadataResponseBytes - probe;
    expect(Buffer.byteLength(JSON.stringify(metadata(await sized(atLimit), request)))).toBe(16 * 1024 * 1024);
    const over = await sized(atLimit + 1);
    expect(errorOf(() => metadataJson(over, request)).code).toBe('response_too_large');
    const err = errorOf(() => metadata(over, request));
    expect(err.status).toBe(413);
    expect(err.toBody()).toEqual({
      detail: expect.any(String),
      code: 'response_too_large',
      limit: 16 * 1024 * 1024,
      bytes: 16 * 1024 * 1024 + 1,
    });
  });
});
