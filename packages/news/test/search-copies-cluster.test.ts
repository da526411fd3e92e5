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
  type FixtureArticle,
  type Stack,
} from './gateway-harness.ts';
import { defaultSyntheticCorpusOptions, plantCopies, syntheticArticles } from '../src/corpus/index.ts';

// The synthetic corpus (2019–2025) with planted syndicated copies 1–40 days after their original, so stories cross
// months and years: with the even crawl months on one worker and the odd ones on another, many stories' copies live
// on both.
const VERSION = 'copies-cluster-1';
const CORPUS = { ...defaultSyntheticCorpusOptions, textBytes: 300_000 };
const ARTICLES = [
  ...plantCopies(syntheticArticles(CORPUS), { share: 0.3, editShare: 0.05, maxCopies: 3 }, CORPUS.seed),
].map((p): FixtureArticle => ({ ...p.article }));
const evenMonth = (id: string) => Number(id.slice(5, 7)) % 2 === 0;
const SPLIT = [evenMonth, (id: string) => !evenMonth(id)];
let cleanup: () => Promise<void>;
let single: Stack;
let workers: RunningServer[] = [];
let cluster: RunningGateway;

beforeAll(async () => {
  const built = await buildFixtureRelease(ARTICLES, VERSION);
  cleanup = built.cleanup;
  single = await startStack(built.dir, VERSION);
  workers = await Promise.all(
    SPLIT.map(async (holds, i) => {
      const release = await openRelease(built.dir, {
        expectedIndexVersion: VERSION,
        selectShards: (_index, ids) => ids.filter(holds),
      });
      return startWorker(
        release,
        { host: '127.0.0.1', port: 0, shardSpec: i === 0 ? 'even months' : 'odd months' },
        silentLogger,
      );
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

describe('POST /api/v2/search/copies over two workers that split the crawl months', () => {
  it("lists every card's copies as one worker does, as many as the card counts, whole and one per page", async () => {
    let spread = 0;
    let cards = 0;
    for (const dedupe of ['exact', 'near'] as const) {
      // Nearly every article, every page of stories: the lists then hold every matching article once.
      const body = { index: 'news', query: 'a OR e', dedupe };
      const entries: AnyJson[] = [];
      let s: AnyJson;
      let after: string | null = null;
      do {
        s = await both('/api/v2/search', { ...body, page_size: 100, cursor: after });
        entries.push(...s.page);
        after = s.next_cursor;
      } while (after !== null);
      expect(entries).toHaveLength(s.stories);
      let listed = 0;
      for (const entry of entries) {
        const whole = await both('/api/v2/search/copies', {
          expected_index_version: VERSION,
          ...body,
          story: entry.story,
        });
        expect(whole.page).toHaveLength(entry.copies);
        expect(whole.copies).toBe(entry.copies);
        listed += whole.page.length;
        cards++;
        if (new Set(whole.page.map((c: AnyJson) => evenMonth(c.shard_id))).size > 1) spread++;
        if (entry.copies < 3) continue;
        const paged: AnyJson[] = [];
        let cursor: string | null = null;
        do {
          const r: AnyJson = await both('/api/v2/search/copies', {
            expected_index_version: VERSION,
            ...body,
            story: entry.story,
            page_size: 1,
            cursor,
          });
          paged.push(...r.page);
          cursor = r.next_cursor;
        } while (cursor !== null);
        expect(paged).toEqual(whole.page);
      }
      expect(listed).toBe(s.articles);
    }
    expect(cards).toBeGreaterThan(100);
    // Not vacuous: some stories have copies on both workers.
    expect(spread).toBeGreaterThan(0);
    console.log(`copies of ${cards} cards, ${spread} of them across both workers`);
  });

  it('answers a story id no article has with 422 unknown_story from the cluster too', async () => {
    for (const story of [ARTICLES.length, 2 ** 32 - 1]) {
      const r = await both('/api/v2/search/copies', {
        expected_index_version: VERSION,
        index: 'news',
        query: 'a OR e',
        dedupe: 'exact',
        story,
      });
      expect(r.code).toBe('unknown_story');
    }
  });
});
