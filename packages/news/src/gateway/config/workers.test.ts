import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, parseGatewayConfig } from './index.ts';

const dir = mkdtempSync(join(tmpdir(), 'topology-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const base = { GATEWAY_INDEX_VERSION: 'v1', GATEWAY_ENVIRONMENT: 'development' };

function topology(content: unknown): string {
  const file = join(dir, `t${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

describe('worker addresses', () => {
  it('takes several GATEWAY_WORKER_URLs, each learning its shards from the worker', () => {
    const c = parseGatewayConfig({ ...base, GATEWAY_WORKER_URL: 'http://10.0.0.2:8701, http://10.0.0.3:8701/' });
    expect(c.workers).toEqual([
      { url: 'http://10.0.0.2:8701', shards: null },
      { url: 'http://10.0.0.3:8701', shards: null },
    ]);
    expect(c.workerUrl).toBe('http://10.0.0.2:8701');
  });

  it('reads a topology file of format 1 with a shard spec per worker', () => {
    const file = topology({
      topology_format: 1,
      workers: [
        { url: 'http://h1:8701', shards: '2019-01..2019-06' },
        { url: 'http://h2:8701', shards: '2019-07.p001,2020' },
      ],
    });
    const c = parseGatewayConfig({ ...base, GATEWAY_TOPOLOGY: file });
    expect(c.workers.map((w) => [w.url, w.shards?.text])).toEqual([
      ['http://h1:8701', '2019-01..2019-06'],
      ['http://h2:8701', '2019-07.p001,2020'],
    ]);
  });

  it.each([
    [
      'another format version',
      { topology_format: 2, workers: [{ url: 'http://h:1', shards: '2019' }] },
      /topology_format 2; this gateway reads 1/,
    ],
    ['no workers', { topology_format: 1, workers: [] }, /GATEWAY_TOPOLOGY/],
    [
      'an unknown field',
      { topology_format: 1, workers: [{ url: 'http://h:1', shards: '2019', weight: 2 }] },
      /GATEWAY_TOPOLOGY/,
    ],
    [
      'a bad shard spec',
      { topology_format: 1, workers: [{ url: 'http://h:1', shards: '2019-01...2019-03' }] },
      /workers\[0\]\.shards/,
    ],
    [
      'a url that is not an http origin',
      { topology_format: 1, workers: [{ url: 'https://h:1/x', shards: '2019' }] },
      /workers\[0\]\.url/,
    ],
    [
      'a worker listed twice',
      {
        topology_format: 1,
        workers: [
          { url: 'http://h:1', shards: '2019' },
          { url: 'http://h:1/', shards: '2020' },
        ],
      },
      /listed twice/,
    ],
    ['text that is not JSON', '{"topology_format": 1,', /readable JSON topology file/],
  ])('refuses a topology file with %s, naming what to fix', (_what, content, message) => {
    const env = { ...base, GATEWAY_TOPOLOGY: topology(content) };
    expect(() => parseGatewayConfig(env)).toThrowError(ConfigError);
    expect(() => parseGatewayConfig(env)).toThrowError(message);
  });
});
