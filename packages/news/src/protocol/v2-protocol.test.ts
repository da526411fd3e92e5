import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  decodeEnvelope,
  decodeReply,
  encodeEnvelope,
  encodeReply,
  ProtocolError,
  SPLIT_REPLY_TYPE,
  type WorkerReply,
} from './index.ts';

describe('v2 reply framing', () => {
  it('sends a successful v2 reply as envelope line + the response text, and restores it exactly', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.string(), (value, version) => {
        const reply: WorkerReply = {
          kind: 'v2_documents',
          indexVersion: version,
          outcome: { ok: true, json: JSON.stringify(value) },
        };
        const framed = encodeReply(reply);
        expect(framed.contentType).toBe(SPLIT_REPLY_TYPE);
        expect(decodeReply(framed.contentType, framed.body)).toEqual(reply);
      }),
    );
  });

  it('keeps refusals and v1 replies as one JSON document', () => {
    const refusal: WorkerReply = {
      kind: 'v2_metadata',
      indexVersion: 'r1',
      outcome: { ok: false, error: { detail: 'd', code: 'invalid_doc_ix', position: 1 } },
    };
    const count: WorkerReply = { kind: 'count', indexVersion: 'r1', count: 3 };
    for (const reply of [refusal, count]) {
      const framed = encodeReply(reply);
      expect(framed.contentType).toBe('application/json');
      expect(decodeReply(framed.contentType, framed.body)).toEqual(reply);
    }
  });
});

describe('v2 request decoding at the worker', () => {
  const roundTrip = (request: unknown) => decodeEnvelope(JSON.parse(encodeEnvelope(request as never)));

  it('accepts every v2 kind with its body', () => {
    const range = {
      index: 'news',
      expected_index_version: 'r1',
      shard_id: '2020-01',
      rank_from: 0,
      rank_to: 5,
      query: null,
    };
    expect(roundTrip({ kind: 'v2_occurrences', body: range })).toEqual({
      kind: 'v2_occurrences',
      body: { ...range, case: null, whole_word: null },
    });
    expect(
      roundTrip({ kind: 'v2_find', body: { index: 'news', query: 'q', case: 'insensitive', whole_word: true } }),
    ).toMatchObject({ body: { case: 'insensitive', whole_word: true } });
    expect(roundTrip({ kind: 'v2_contexts', body: { ...range, query: 'q', context_bytes: 10 } })).toMatchObject({
      body: { context_bytes: 10 },
    });
    expect(
      roundTrip({ kind: 'v2_estimate', body: { index: 'news', query: 'q', seed: 3, languages: ['de'] } }),
    ).toMatchObject({ body: { seed: 3, sample_size: null } });
    expect(roundTrip({ kind: 'v2_documents', body: { ...range, languages: ['de'] } })).toMatchObject({
      body: { languages: ['de'], topics: null },
    });
    expect(
      roundTrip({
        kind: 'v2_metadata',
        body: { index: 'news', expected_index_version: 'r1', documents: [{ year: '2020', doc_ix: 4 }] },
      }),
    ).toMatchObject({ body: { documents: [{ year: '2020', doc_ix: 4 }] } });
    expect(roundTrip({ kind: 'v2_info', body: {} })).toEqual({ kind: 'v2_info', body: { index: null } });
  });

  it('refuses malformed v2 bodies with a ProtocolError', () => {
    const bad = [
      { kind: 'v2_find', body: null },
      {
        kind: 'v2_occurrences',
        body: { index: 'news', expected_index_version: 'r1', shard_id: 's', rank_from: 1.5, rank_to: 2 },
      },
      {
        kind: 'v2_documents',
        body: { index: 'news', expected_index_version: 'r1', shard_id: 's', rank_from: 0, rank_to: 2, topics: [1] },
      },
      { kind: 'v2_metadata', body: { index: 'news', expected_index_version: 'r1', documents: ['x'] } },
      {
        kind: 'v2_get_doc',
        body: { index: 'news', expected_index_version: 'r1', query: 'q', shard_id: 's', rank: 0, full_text: 'yes' },
      },
      { kind: 'v2_find', body: { index: 'news', query: 'q', case: 'upper' } },
      { kind: 'v2_count', body: { index: 'news', query: 'q', whole_word: 'yes' } },
    ];
    for (const request of bad) expect(() => roundTrip(request)).toThrow(ProtocolError);
  });

  it('says what is wrong, in the words of the field', () => {
    const range = { index: 'news', expected_index_version: 'r1', shard_id: 's', rank_from: 0, rank_to: 2 };
    const cases: [unknown, string][] = [
      [{ kind: 'v2_find', body: null }, 'body must be an object'],
      [{ kind: 'v2_find', body: { query: 'q' } }, 'index must be a string'],
      [{ kind: 'v2_occurrences', body: { ...range, rank_from: 1.5 } }, 'rank_from must be an integer'],
      [{ kind: 'v2_documents', body: { ...range, topics: [1] } }, 'topics must be a list of strings'],
      [
        { kind: 'v2_metadata', body: { index: 'news', expected_index_version: 'r1', documents: 'x' } },
        'documents must be a list',
      ],
      [
        { kind: 'v2_metadata', body: { index: 'news', expected_index_version: 'r1', documents: ['x'] } },
        'documents[0] must be an object',
      ],
      [
        {
          kind: 'v2_metadata',
          body: { index: 'news', expected_index_version: 'r1', documents: [{ year: 2020, doc_ix: 1 }] },
        },
        'year must be a string',
      ],
      [
        { kind: 'v2_get_doc', body: { ...range, query: 'q', rank: 0, full_text: 'yes' } },
        'full_text must be a boolean',
      ],
      [
        { kind: 'v2_find', body: { index: 'news', query: 'q', case: 'upper' } },
        'case must be sensitive or insensitive',
      ],
      [
        { kind: 'v2_estimate_resolve', body: { request: { index: 'news', query: 'q' }, draws: [['s', 1.5]] } },
        'draws must be null or a list of [shard_id, rank]',
      ],
      [{ kind: 'v2_estimate_resolve', body: { draws: null } }, 'request must be an object'],
    ];
    for (const [request, message] of cases) expect(() => roundTrip(request)).toThrow(message);
  });

  it('keeps absent optional fields null where the call admits null, and leaves out the others', () => {
    const body = { index: 'news', expected_index_version: 'r1', query: 'q', shard_id: 's', rank: 3 };
    expect(roundTrip({ kind: 'v2_get_doc', body })).toEqual({
      kind: 'v2_get_doc',
      body: { ...body, case: null, whole_word: null },
    });
    expect(
      roundTrip({ kind: 'v2_estimate_resolve', body: { request: { index: 'news', query: 'q' }, draws: [['s', 4]] } }),
    ).toMatchObject({ body: { draws: [['s', 4]], request: { year_min: null, languages: null, seed: null } } });
  });
});
