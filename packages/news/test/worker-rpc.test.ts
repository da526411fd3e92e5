import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRelease } from '../src/release/index.ts';
import type { OpenRelease } from '../src/release/index.ts';
import { createRpcHandler, defaultRpcHandlerOptions, type RpcHandler } from '../src/worker/index.ts';
import { buildFixtureRelease } from './gateway-harness.ts';
import { FIXTURE } from './gateway-fixture.ts';

const VERSION = 'fixture-worker';
let release: OpenRelease;
let cleanup: () => Promise<void>;
let handle: RpcHandler;
let uncached: RpcHandler;
const sel = { index: 'news', yearMin: null, yearMax: null };

beforeAll(async () => {
  const built = await buildFixtureRelease(FIXTURE, VERSION);
  cleanup = built.cleanup;
  release = await openRelease(built.dir, { expectedIndexVersion: VERSION });
  handle = createRpcHandler(release);
  uncached = createRpcHandler(release, { ...defaultRpcHandlerOptions, cacheEntries: 0 });
});
afterAll(async () => {
  release?.close();
  await cleanup?.();
});

describe('worker RPC handler', () => {
  it('reports its release identity and the whole shard set, chronologically', () => {
    const r = handle({ kind: 'identity' });
    if (r.kind !== 'identity') throw new Error(r.kind);
    expect(r.identity.indexVersion).toBe(VERSION);
    expect(r.identity.indexes.map((i) => i.name)).toEqual(['news']);
    expect(r.identity.indexes[0]!.shards.map((s) => [s.shardId, s.year, s.docBase, s.docCount])).toEqual([
      ['2019-01', '2019', 0, 2],
      ['2019-03', '2019', 2, 1],
      ['2020-05', '2020', 0, 1],
      ['2021-07', '2021', 0, 1],
    ]);
  });

  it('tags every reply with the release it serves', () => {
    for (const r of [
      handle({ kind: 'count', query: 'a', ...sel }),
      handle({ kind: 'count', query: 'a', ...sel, index: 'nope' }),
    ]) {
      expect(r.indexVersion).toBe(VERSION);
    }
  });

  it('answers the same counts and intervals with and without the result cache, repeatedly', () => {
    for (const query of ['alpha', 'beta', 'ü', '', 'absent', 'alpha beta', 'a']) {
      for (const years of [
        { yearMin: null, yearMax: null },
        { yearMin: 2019, yearMax: 2019 },
        { yearMin: 2020, yearMax: null },
      ]) {
        for (let i = 0; i < 2; i++) {
          expect(handle({ kind: 'count', query, ...sel, ...years })).toEqual(
            uncached({ kind: 'count', query, ...sel, ...years }),
          );
          expect(handle({ kind: 'find', query, ...sel, ...years })).toEqual(
            uncached({ kind: 'find', query, ...sel, ...years }),
          );
        }
      }
    }
  });

  it('refuses an unknown index, an s outside the shard list and a rank outside the interval as typed errors', () => {
    expect(handle({ kind: 'find', query: 'a', ...sel, index: 'other' })).toMatchObject({
      kind: 'error',
      error: { code: 'unknown_index', available: ['news'] },
    });
    expect(handle({ kind: 'get_doc', query: 'alpha', ...sel, s: 4, rank: 0, maxCtxLen: 10 })).toMatchObject({
      kind: 'error',
      error: { code: 'shard_out_of_range', s: 4, shardCount: 4 },
    });
    const f = handle({ kind: 'find', query: 'alpha', ...sel });
    if (f.kind !== 'find') throw new Error(f.kind);
    const [lo, hi] = f.segments[0]!;
    expect(handle({ kind: 'get_doc', query: 'alpha', ...sel, s: 0, rank: hi, maxCtxLen: 10 })).toMatchObject({
      kind: 'error',
      error: { code: 'rank_out_of_range', lo, hi, rank: hi },
    });
  });

  it('resolves every rank of the empty query, separators included, without throwing', () => {
    const f = handle({ kind: 'find', query: '', ...sel });
    if (f.kind !== 'find') throw new Error(f.kind);
    for (const [s, [lo, hi]] of f.segments.entries()) {
      for (let rank = lo; rank < hi; rank++) {
        const d = handle({ kind: 'get_doc', query: '', ...sel, s, rank, maxCtxLen: 3 });
        expect(d.kind).toBe('get_doc');
      }
    }
  });

  it('resolves a rank to the per-year doc_ix with the article metadata', () => {
    const f = handle({ kind: 'find', query: 'Köln', ...sel });
    if (f.kind !== 'find') throw new Error(f.kind);
    const [lo] = f.segments[0]!;
    const d = handle({ kind: 'get_doc', query: 'Köln', ...sel, s: 0, rank: lo, maxCtxLen: 5 });
    if (d.kind !== 'get_doc') throw new Error(d.kind);
    expect(d.doc).toMatchObject({
      shardId: '2019-01',
      year: '2019',
      docIx: 1,
      docLen: Buffer.byteLength(FIXTURE[1]!.text),
    });
    expect(d.doc.metadata?.title).toBe('Zwei');
    expect(d.doc.metadata?.text_xxhash64).toMatch(/^\d+$/);
  });
});
