import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../api/api-client.ts';
import { startJsonServer } from '../api/json-server.fixture.ts';
import { SearchSession } from './search-session.ts';
import { EMPTY_STATE } from './url-state.ts';

/**
 * A local server speaking the v2 find/documents protocol: three shards of two occurrences each (one article per
 * shard). It answers once every page of a step is asked for, later shards first; on request it holds all but the
 * first shard, or refuses a shard once.
 */
const SHARDS = ['2024-01', '2024-02', '2024-03'];
let close = async () => {};
let base: string;
let inFlight = 0;
let mostInFlight = 0;
const failOnce = new Set<string>();
/** When set, only the first shard answers; the others wait for `releaseLater()`. By default the last one answers first. */
let holdLater = false;
let releaseLater = () => {};
let laterReleased = Promise.resolve();
const waiting: (() => void)[] = [];
const flush = () => {
  for (const answer of waiting.splice(0)) answer();
};
const asked: string[] = [];

beforeAll(async () => {
  ({ base, close } = await startJsonServer((path, body, reply) => {
    if (path === '/api/v2/find') {
      return reply(200, {
        index_version: 'v1',
        total_occurrences: 6,
        segment_by_shard: SHARDS.map(() => [0, 2]),
        shard_ids: SHARDS,
        shard_years: SHARDS.map(() => '2024'),
      });
    }
    const shard = String(body?.['shard_id']);
    asked.push(shard);
    inFlight++;
    mostInFlight = Math.max(mostInFlight, inFlight);
    const position = SHARDS.indexOf(shard);
    // The last shard answers first, so merging in arrival order would reverse the articles.
    const answer = () =>
      setTimeout(
        () => {
          inFlight--;
          if (failOnce.delete(shard)) return reply(500, { detail: 'worker fault' });
          reply(200, {
            index_version: 'v1',
            shard_id: shard,
            rank_from: body?.['rank_from'],
            rank_to: body?.['rank_to'],
            page_occurrences: 2,
            page_distinct_documents: 1,
            page_matching_documents: 1,
            page_matching_occurrences: 2,
            documents: [{ year: '2024', doc_ix: position, occurrences: 2, first_rank: 0, metadata: { title: shard } }],
          });
        },
        (SHARDS.length - position) * 20,
      );
    if (holdLater) {
      void (position > 0 ? laterReleased : Promise.resolve()).then(answer);
      return;
    }
    // Nothing is answered until every page of the step is asked for (or 300 ms passed: a step of fewer pages).
    waiting.push(answer);
    if (waiting.length === SHARDS.length) flush();
    else setTimeout(flush, 300);
  }));
});
afterAll(() => close());

const state = { ...EMPTY_STATE, query: 'x' };

describe('SearchSession.examineNext', () => {
  it('asks for the pages of one step together and merges them in find order, reporting each page as it is merged', async () => {
    mostInFlight = 0;
    const s = await SearchSession.start(new ApiClient(base), state);
    const reported: string[][] = [];
    const added = await s.examineNext((fresh) => reported.push(fresh.map((a) => a.firstShardId)));
    expect(mostInFlight).toBe(SHARDS.length);
    expect(added.map((a) => a.firstShardId)).toEqual(SHARDS);
    expect(reported).toEqual(SHARDS.map((shard) => [shard]));
    expect(s.articles.totals().examinedOccurrences).toBe(6);
    expect(s.done).toBe(true);
  });

  it('reports the first page while later pages are still on their way', async () => {
    const s = await SearchSession.start(new ApiClient(base), state);
    holdLater = true;
    laterReleased = new Promise<void>((r) => {
      releaseLater = r;
    });
    const unansweredAtReport: number[] = [];
    await s.examineNext(() => {
      unansweredAtReport.push(inFlight);
      releaseLater();
    });
    holdLater = false;
    expect(unansweredAtReport[0]).toBe(2);
    expect(s.articles.articles().map((a) => a.firstShardId)).toEqual(SHARDS);
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
