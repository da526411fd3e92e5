/**
 * Test harness for the gateway suites: a small release built from articles written here (no third-party
 * text), a real worker and a real gateway on 127.0.0.1 with random free ports, in this process.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { pino } from 'pino';
import { buildRelease, openRelease } from '../src/release/index.ts';
import { startWorker, type RunningServer } from '../src/worker/index.ts';
import { parseGatewayConfig, startGateway, type RunningGateway } from '../src/gateway/index.ts';
import { pooledFetch } from './support/pooled-fetch.ts';

// Response bodies are checked field by field in the tests; a precise type per endpoint would add nothing there.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyJson = any;

export interface FixtureArticle {
  readonly text: string;
  readonly warc_date: string;
  readonly [field: string]: unknown;
}

export const silentLogger = pino({ level: 'silent' });

/** Builds a release from the given articles into a temp dir. */
export async function buildFixtureRelease(
  articles: readonly FixtureArticle[],
  indexVersion: string,
): Promise<{ dir: string; cleanup(): Promise<void> }> {
  const root = await mkdtemp(join(tmpdir(), 'gw-fixture-'));
  const input = join(root, 'articles.jsonl');
  await writeFile(input, articles.map((a) => JSON.stringify(a)).join('\n') + '\n');
  const dir = join(root, 'release');
  await buildRelease({ inputs: [input], out: dir, indexVersion, concurrency: 1 });
  return { dir, cleanup: () => rm(root, { recursive: true, force: true }) };
}

export interface Stack {
  readonly gatewayUrl: string;
  readonly worker: RunningServer;
  readonly gateway: RunningGateway;
  close(): Promise<void>;
}

export const OPERATOR_ENV = {
  GATEWAY_OPERATOR_NAME: 'Beispiel <Betrieb> GmbH',
  GATEWAY_OPERATOR_ADDRESS: 'Musterstraße 1 | 10115 Berlin',
  GATEWAY_OPERATOR_EMAIL: 'kontakt@example.org',
} as const;

/** Starts worker + gateway in this process. `env` adds or overrides GATEWAY_* settings. */
export async function startStack(
  releaseDir: string,
  indexVersion: string,
  env: Record<string, string> = {},
): Promise<Stack> {
  const release = await openRelease(releaseDir, { mode: 'memory', expectedIndexVersion: indexVersion, verify: 'full' });
  const worker = await startWorker(release, { host: '127.0.0.1', port: 0 }, silentLogger);
  const config = parseGatewayConfig({
    GATEWAY_INDEX_VERSION: indexVersion,
    GATEWAY_WORKER_URL: worker.url,
    GATEWAY_PORT: '0',
    ...OPERATOR_ENV,
    ...env,
  });
  const gateway = await startGateway(config, silentLogger);
  return {
    gatewayUrl: gateway.url,
    worker,
    gateway,
    close: async () => {
      await gateway.close();
      await worker.close();
    },
  };
}

/**
 * For a test file's whole run: builds a release from `articles` and starts a stack on it (beforeAll), then stops
 * and removes both (afterAll). `url(path)` addresses the gateway; `stack` is there for the tests that need more.
 */
export function useFixtureStack(
  articles: readonly FixtureArticle[],
  indexVersion: string,
  env: Record<string, string> = {},
) {
  let stack: Stack | undefined;
  let cleanup: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const built = await buildFixtureRelease(articles, indexVersion);
    cleanup = built.cleanup;
    stack = await startStack(built.dir, indexVersion, env);
  });
  afterAll(async () => {
    await stack?.close();
    await cleanup?.();
  });
  const started = (): Stack => {
    if (stack === undefined) throw new Error('the fixture stack is not running (used outside a test?)');
    return stack;
  };
  return {
    get stack(): Stack {
      return started();
    },
    url: (path: string): string => `${started().gatewayUrl}${path}`,
  };
}

/** POSTs a JSON value (or raw bytes/text with a chosen content type) and returns status and parsed body. */
export async function post(
  url: string,
  body: unknown,
  contentType: string | null = 'application/json',
): Promise<{ status: number; body: AnyJson; headers: Headers }> {
  const headers: Record<string, string> = contentType === null ? {} : { 'content-type': contentType };
  const payload =
    body instanceof Uint8Array
      ? body
      : typeof body === 'string' && contentType !== 'application/json'
        ? body
        : JSON.stringify(body);
  const res = await pooledFetch(url, { method: 'POST', headers, body: payload as BodyInit });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* keep text */
  }
  return { status: res.status, body: parsed, headers: res.headers };
}

export async function get(url: string): Promise<{ status: number; body: AnyJson; text: string; headers: Headers }> {
  const res = await fetch(url);
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* keep text */
  }
  return { status: res.status, body: parsed, text, headers: res.headers };
}
