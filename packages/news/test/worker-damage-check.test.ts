/**
 * `news worker --verify sizes` (issue 23, item 14): the worker starts after checking only sizes, then checks every
 * served file's sha256 in the background; a shard with flipped bytes is taken out of service (health 503 naming it,
 * queries touching it 503 `shards_unavailable` instead of wrong 200s) while the intact shards keep answering.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRelease, type IndexManifest } from '../src/release/index.ts';
import { startWorker, type RunningWorker } from '../src/worker/index.ts';
import { parseGatewayConfig, startGateway, type RunningGateway } from '../src/gateway/index.ts';
import { buildFixtureRelease, OPERATOR_ENV, silentLogger, type AnyJson } from './gateway-harness.ts';

const VERSION = 'damage-1';
const text = (n: number): string =>
  `Nachrichten aus Köln ${n}: der Bundesrat tagt, der Bundesrat beschließt. `.repeat(40);
const ARTICLES = [
  { text: text(1), warc_date: '2019-01-10T00:00:00Z', url: 'https://a.synthetic.example/1' },
  { text: text(2), warc_date: '2019-01-12T00:00:00Z', url: 'https://a.synthetic.example/2' },
  { text: text(3), warc_date: '2020-03-01T00:00:00Z', url: 'https://a.synthetic.example/3' },
  { text: text(4), warc_date: '2020-05-01T00:00:00Z', url: 'https://a.synthetic.example/4' },
];
/** "Bundesrat" twice per repetition, 40 repetitions per article. */
const PER_ARTICLE = 80;

let built: Awaited<ReturnType<typeof buildFixtureRelease>>;
let worker: RunningWorker;
let gateway: RunningGateway;
const post = async (path: string, body: unknown): Promise<{ status: number; json: AnyJson }> => {
  const r = await fetch(`${gateway.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: r.status, json: await r.json() };
};

beforeAll(async () => {
  built = await buildFixtureRelease(ARTICLES, VERSION);
  const manifest = JSON.parse(readFileSync(join(built.dir, 'index-manifest.json'), 'utf8')) as IndexManifest;
  const shard = manifest.indexes[0]!.shards.find((s) => s.shard_id === '2019-01')!;
  // 2,000 flipped bytes in the middle of the text: same size, so `--verify sizes` opens it.
  const file = join(built.dir, shard.dir, 'text.bin');
  const bytes = readFileSync(file);
  const from = Math.floor(bytes.length / 4);
  for (let i = from; i < from + 2000; i++) bytes[i] = (bytes[i] as number) ^ 0x20;
  writeFileSync(file, bytes);

  const release = await openRelease(built.dir, { mode: 'disk', expectedIndexVersion: VERSION, verify: 'sizes' });
  worker = await startWorker(release, { host: '127.0.0.1', port: 0, backgroundCheck: built.dir }, silentLogger);
  gateway = await startGateway(
    parseGatewayConfig({
      GATEWAY_INDEX_VERSION: VERSION,
      GATEWAY_WORKER_URL: worker.url,
      GATEWAY_PORT: '0',
      ...OPERATOR_ENV,
    }),
    silentLogger,
  );
});

afterAll(async () => {
  await gateway?.close();
  await worker?.close();
  await built?.cleanup();
});

describe('news worker --verify sizes: the background check', () => {
  it('finds the shard with flipped bytes, and only it', async () => {
    const summary = await worker.backgroundCheck;
    expect(summary).toMatchObject({ damagedShards: 1, filesDone: summary?.filesTotal });
    expect(summary?.bytesDone).toBe(summary?.bytesTotal);
  });

  it('health is 503 and names the damaged shard, its file and what to do', async () => {
    await worker.backgroundCheck;
    const r = await fetch(`${gateway.url}/api/v2/health`);
    expect(r.status).toBe(503);
    const body = (await r.json()) as AnyJson;
    expect(body).toMatchObject({
      status: 'unavailable',
      missing_shards: ['2019-01'],
      damaged_shards: [
        {
          index: 'news',
          shardId: '2019-01',
          reason: expect.stringMatching(
            /indexes\/news\/shards\/2019-01\/text\.bin: it does not match its sha256 in the manifest/,
          ),
        },
      ],
    });
    expect(body.reason).toMatch(
      /shard 2019-01 of release damage-1 is damaged on the worker and out of service .*restore the release from its source/,
    );
  });

  it('queries touching it get 503 shards_unavailable (v1 and v2), not an answer from damaged bytes', async () => {
    await worker.backgroundCheck;
    for (const path of ['/api/v1/count', '/api/v1/find', '/api/v2/count', '/api/v2/find']) {
      const r = await post(path, { query: 'Bundesrat', index: 'news' });
      expect(r.status, path).toBe(503);
      expect(r.json, path).toMatchObject({
        code: 'shards_unavailable',
        missing_shards: ['2019-01'],
        detail: expect.stringMatching(/Shard 2019-01 of this release is damaged/),
      });
    }
    expect(
      (await post('/api/v1/count', { query: 'Bundesrat', index: 'news', year_min: 2019, year_max: 2019 })).status,
    ).toBe(503);
  });

  it('the intact shards keep answering, with the right counts', async () => {
    await worker.backgroundCheck;
    const v1 = await post('/api/v1/count', { query: 'Bundesrat', index: 'news', year_min: 2020, year_max: 2020 });
    expect(v1.status).toBe(200);
    expect(v1.json.count).toBe(2 * PER_ARTICLE);
    const v2 = await post('/api/v2/count', { query: 'Bundesrat', index: 'news', year_min: 2020 });
    expect(v2.status).toBe(200);
    expect(v2.json).toMatchObject({ count: 2 * PER_ARTICLE });
  });

  it('closing the worker while the check runs stops it (its promise settles null) and closes the release', async () => {
    const release = await openRelease(built.dir, { mode: 'disk', expectedIndexVersion: VERSION, verify: 'sizes' });
    const other = await startWorker(release, { host: '127.0.0.1', port: 0, backgroundCheck: built.dir }, silentLogger);
    await other.close();
    expect(await other.backgroundCheck).toBeNull();
  });
});
