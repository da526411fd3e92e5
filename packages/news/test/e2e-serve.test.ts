import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixtureRelease, get, post } from './gateway-harness.ts';
import { FIXTURE } from './gateway-fixture.ts';

const NEWS_BIN = fileURLToPath(new URL('../bin/news.js', import.meta.url));
const VERSION = 'fixture-serve';
let dir: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  const built = await buildFixtureRelease(FIXTURE, VERSION);
  dir = built.dir;
  cleanup = built.cleanup;
});
afterAll(async () => {
  await cleanup?.();
});

describe('news serve', () => {
  it('starts a worker and a gateway bound to the release, prints the URL, and stops both on SIGTERM', async () => {
    const child = spawn(process.execPath, [NEWS_BIN, 'serve', '--release', dir, '--port', '0'], {
      env: { ...process.env, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout }).on('line', (line) => {
          const m = /at (http:\/\/127\.0\.0\.1:\d+)/.exec(line);
          if (m?.[1] !== undefined) resolve(m[1]);
        });
        void exited.then((code) => reject(new Error(`serve exited ${code}`)));
      });
      const health = await get(`${url}/api/v2/health`);
      expect(health.status).toBe(200);
      expect(health.body.index_version).toBe(VERSION);
      expect((await post(`${url}/api/v1/count`, { query: 'alpha', index: 'news' })).body.count).toBeGreaterThan(0);
      expect((await get(`${url}/impressum`)).text).toContain('Development instance');
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });
});
