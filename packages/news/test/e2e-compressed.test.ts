/**
 * The compressed kind end to end: two releases of the same real articles, one per index kind, each served by its
 * own worker and gateway processes; every v1 and v2 answer must be the same (latency fields aside).
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShardKind } from '../src/shard/index.ts';
import { post, type AnyJson } from './gateway-harness.ts';
import { CORPORA_DIR, corpusFiles } from './support/corpora.ts';
import { SHARED_VERSION, sharedRelease } from './support/shared-release.ts';
import { startV2Processes, v2, type V2Processes } from './v2-support.ts';

// Every corpus, one release per kind with the builder's defaults: the shared releases, built once per machine (other
// suites test the same two), instead of two more builds of most of the same articles.
const VERSION = SHARED_VERSION;
const INPUTS = existsSync(CORPORA_DIR) ? corpusFiles() : [];
const QUERIES = [
  'Berlin',
  ' die ',
  'Österreich',
  'the',
  'oil',
  'Japan',
  '€',
  '„',
  '\n',
  'e',
  'Bundesregierung',
  'qwxz-not-in-any-article',
  'ü',
  'Reuter',
];

const stacks = new Map<ShardKind, V2Processes>();

/** A response body without the timing fields, which differ between any two requests. */
function answer(body: AnyJson): AnyJson {
  const { latency_ms: _latency, ...rest } = body as Record<string, unknown>;
  return rest;
}

async function both(path: string, body: unknown, api: 'v1' | 'v2' = 'v1'): Promise<[AnyJson, AnyJson]> {
  const ask = async (kind: ShardKind): Promise<AnyJson> => {
    const url = (stacks.get(kind) as V2Processes).url;
    const res = api === 'v1' ? await post(`${url}/api/v1/${path}`, body) : await v2(url, path, body);
    expect(res.status, `${kind} ${path} ${JSON.stringify(body)}`).toBe(200);
    return answer(res.body);
  };
  return [await ask('sa'), await ask('compressed')];
}

describe.skipIf(INPUTS.length === 0)(
  'a compressed release served through worker and gateway answers as the SA release does',
  () => {
    beforeAll(async () => {
      for (const kind of ['sa', 'compressed'] as const) {
        stacks.set(kind, await startV2Processes(await sharedRelease({ inputs: INPUTS, kind })));
      }
    });
    afterAll(async () => {
      for (const s of stacks.values()) await s.stop();
    });

    it('v1 count and find: same counts and the same rank segments per shard', async () => {
      for (const query of QUERIES) {
        const [a, b] = await both('count', { query, index: 'news' });
        expect(b, query).toEqual(a);
        const [fa, fb] = await both('find', { query, index: 'news' });
        expect(fb, query).toEqual(fa);
      }
    });

    it('v1 get_doc: the same windows (1,000 bytes of context) for ranks across every segment', async () => {
      let checked = 0;
      for (const query of QUERIES.slice(0, 8)) {
        const [found] = await both('find', { query, index: 'news' });
        for (const [s, [lo, hi]] of (found.segment_by_shard as [number, number][]).entries()) {
          for (const rank of [lo, Math.floor((lo + hi) / 2), hi - 1].filter((r) => r >= lo && r < hi)) {
            const [a, b] = await both('get_doc', { query, index: 'news', s, rank, max_ctx_len: 1000 });
            expect(b, `${query} s=${s} rank=${rank}`).toEqual(a);
            checked++;
          }
        }
      }
      expect(checked).toBeGreaterThan(30);
    });

    it('v2 find, occurrences, documents pages of 1,000 ranks and full-text get_doc: identical answers', async () => {
      for (const query of ['Japan', ' die ', 'ü']) {
        const [fa, fb] = await both('find', { index: 'news', query }, 'v2');
        expect(fb).toEqual(fa);
        const segments = fa.segment_by_shard as [number, number][];
        const best = segments.reduce((k, [lo, hi], i) => (hi - lo > segments[k]![1] - segments[k]![0] ? i : k), 0);
        const [lo, hi] = segments[best]!;
        const page = {
          index: 'news',
          expected_index_version: VERSION,
          query,
          shard_id: fa.shard_ids[best],
          rank_from: lo,
          rank_to: Math.min(hi, lo + 1000),
        };
        const [da, db] = await both('documents', page, 'v2');
        expect(db).toEqual(da);
        expect((da.documents as unknown[]).length).toBeGreaterThan(0);
        const [oa, ob] = await both('occurrences', page, 'v2');
        expect(ob).toEqual(oa);
        const full = {
          index: 'news',
          expected_index_version: VERSION,
          query,
          shard_id: fa.shard_ids[best],
          rank: hi - 1,
          full_text: true,
        };
        const [ga, gb] = await both('get_doc', full, 'v2');
        expect(gb).toEqual(ga);
        expect(ga.disp_len).toBe(ga.doc_len);
      }
    });
  },
);
