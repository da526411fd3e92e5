import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRelease } from '../src/release/index.ts';
import { startWorker, type RunningServer } from '../src/worker/index.ts';
import { parseGatewayConfig, startGateway, type RunningGateway } from '../src/gateway/index.ts';
import {
  buildFixtureRelease,
  OPERATOR_ENV,
  post,
  silentLogger,
  startStack,
  type AnyJson,
  type Stack,
} from './gateway-harness.ts';
import { ARTICLES } from './support/planted-stories.ts';

// The planted wire story runs from 2023-12 to 2024-02: with 2023 on one worker and 2024 on another, its copies
// live on both, and the gateway merges their lists.
const VERSION = 'copies-cluster-1';
let cleanup: () => Promise<void>;
let single: Stack;
let workers: RunningServer[] = [];
let cluster: RunningGateway;

beforeAll(async () => {
  const built = await buildFixtureRelease(ARTICLES, VERSION);
  cleanup = built.cleanup;
  single = await startStack(built.dir, VERSION);
  workers = await Promise.all(
    ['2023', '2024'].map(async (year) => {
      const release = await openRelease(built.dir, {
        expectedIndexVersion: VERSION,
        selectShards: (_index, ids) => ids.filter((id) => id.startsWith(year)),
      });
      return startWorker(release, { host: '127.0.0.1', port: 0, shardSpec: year }, silentLogger);
    }),
  );
  cluster = await startGateway(
    parseGatewayConfig({
      GATEWAY_INDEX_VERSION: VERSION,
      GATEWAY_WORKER_URL: workers.map((w) => w.url).join(','),
      GATEWAY_PORT: '0',
      ...OPERATOR_ENV,
    }),
    silentLogger,
  );
});
afterAll(async () => {
  await cluster?.close();
  await Promise.all(workers.map((w) => w.close()));
  await single?.close();
  await cleanup?.();
});

const both = async (path: string, body: Record<string, unknown>): Promise<AnyJson> => {
  const one = await post(`${single.gatewayUrl}${path}`, body);
  const many = await post(`${cluster.url}${path}`, body);
  expect(many.status).toBe(one.status);
  expect(many.body).toEqual(one.body);
  return many.body;
};

describe('POST /api/v2/search/copies over two workers that split the years', () => {
  it("lists every card's copies as one worker does, as many as the card counts, in every page size", async () => {
    let spread = 0;
    for (const dedupe of ['exact', 'near'] as const) {
      const body = { index: 'news', query: '"Oil prices"', dedupe };
      const s = await both('/api/v2/search', body);
      for (const entry of s.page) {
        const whole = await both('/api/v2/search/copies', { ...body, story: entry.story });
        expect(whole.page).toHaveLength(entry.copies);
        if (new Set(whole.page.map((c: AnyJson) => c.year)).size > 1) spread++;
        const paged: AnyJson[] = [];
        let cursor: string | null = null;
        do {
          const r: AnyJson = await both('/api/v2/search/copies', { ...body, story: entry.story, page_size: 1, cursor });
          paged.push(...r.page);
          cursor = r.next_cursor;
        } while (cursor !== null);
        expect(paged).toEqual(whole.page);
      }
    }
    // The wire story (exact: 2 copies, near: 3) has copies on both workers.
    expect(spread).toBe(2);
  });

  it('answers a story id no article has with 422 unknown_story from the cluster too', async () => {
    const r = await both('/api/v2/search/copies', { index: 'news', query: 'Oil', dedupe: 'exact', story: 1 });
    expect(r.code).toBe('unknown_story');
  });
});
