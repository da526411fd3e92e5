import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import { ApiClient } from '../api/api-client.ts';
import { SearchSession } from './search-session.ts';
import { EMPTY_STATE } from './url-state.ts';

/**
 * A local server speaking the v2 find/documents protocol: three shards of two occurrences each (one article per
 * shard), answering later shards first, and refusing a shard once when asked to.
 */
const SHARDS = ['2024-01', '2024-02', '2024-03'];
let server: Server;
let base: string;
let inFlight = 0;
let mostInFlight = 0;
const failOnce = new Set<string>();
const asked: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => { raw += c.toString(); });
    req.on('end', () => {
      const body = JSON.parse(raw) as { shard_id?: string; rank_from?: number; rank_to?: number };
      const reply = (status: number, value: unknown) => { res.writeHead(status, { 'content-type': 'application/json' }); res.end(JSON.stringify(value)); };
      if (req.url === '/api/v2/find') {
        return reply(200, { index_version: 'v1', total_occurrences: 6, segment_by_shard: SHARDS.map(() => [0, 2]), shard_ids: SHARDS, shard_years: SHARDS.map(() => '2024') });
      }
      const shard = body.shard_id ?? '';
      asked.push(shard);
      inFlight++;
      mostInFlight = Math.max(mostInFlight, inFlight);
      // The last shard answers first, so merging in arrival order would reverse the articles.
      setTimeout(() => {
        inFlight--;
        if (failOnce.delete(shard)) return reply(500, { detail: 'worker fault' });
        const docIx = SHARDS.indexOf(shard);
        reply(200, {
          index_version: 'v1', shard_id: shard, rank_from: body.rank_from, rank_to: body.rank_to, page_occurrences: 2,
          page_distinct_documents: 1, page_matching_documents: 1, page_matching_occurrences: 2,
          documents: [{ year: '2024', doc_ix: docIx, occurrences: 2, first_rank: 0, metadata: { title: shard } }],
        });
      }, (SHARDS.length - SHARDS.indexOf(shard)) * 40);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const state = { ...EMPTY_STATE, query: 'x' };

describe('SearchSession.examineNext', () => {
  it('asks for the pages of one step together and merges them in find order', async () => {
    mostInFlight = 0;
    const s = await SearchSession.start(new ApiClient(base), state);
    const added = await s.examineNext();
    expect(mostInFlight).toBe(SHARDS.length);
    expect(added.map((a) => a.firstShardId)).toEqual(SHARDS);
    expect(s.articles.totals().examinedOccurrences).toBe(6);
    expect(s.done).toBe(true);
  });

  it('after a failed page keeps the pages before it, and the next step asks again from the failed one', async () => {
    const s = await SearchSession.start(new ApiClient(base), state);
    failOnce.add('2024-02');
    const err = await s.examineNext().catch((e: unknown) => e);
    expect((err as { status?: number }).status).toBe(500);
    expect(s.articles.articles().map((a) => a.firstShardId)).toEqual(['2024-01']);
    expect(s.remaining).toBe(4);
    asked.length = 0;
    await s.examineNext();
    expect(asked.sort()).toEqual(['2024-02', '2024-03']);
    expect(s.articles.articles().map((a) => a.firstShardId)).toEqual(SHARDS);
    expect(s.done).toBe(true);
  });
});
