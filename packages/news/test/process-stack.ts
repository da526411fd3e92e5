/**
 * For a test file's whole run: the fixture release served by a real `news worker` and `news gateway` process
 * (beforeAll), stopped and removed afterwards, continuing a worker the test left stopped by SIGSTOP.
 */
import { afterAll, beforeAll } from 'vitest';
import { buildFixtureRelease, OPERATOR_ENV } from './gateway-harness.ts';
import { FIXTURE } from './gateway-fixture.ts';
import { spawnNews, type NewsProcess } from './e2e-processes.ts';

export interface ProcessStack {
  readonly worker: NewsProcess;
  readonly workerUrl: string;
  readonly gatewayUrl: string;
}

export function useProcessStack(indexVersion: string, gatewayEnv: Record<string, string>): () => ProcessStack {
  let cleanup: (() => Promise<void>) | undefined;
  let worker: NewsProcess | undefined;
  let gateway: NewsProcess | undefined;
  let stack: ProcessStack | undefined;
  beforeAll(async () => {
    const built = await buildFixtureRelease(FIXTURE, indexVersion);
    cleanup = built.cleanup;
    worker = spawnNews([
      'worker',
      '--release',
      built.dir,
      '--index-version',
      indexVersion,
      '--port',
      '0',
      '--verify',
      'sizes',
    ]);
    const workerUrl = await worker.listening;
    gateway = spawnNews(['gateway', '--port', '0'], {
      ...OPERATOR_ENV,
      GATEWAY_INDEX_VERSION: indexVersion,
      GATEWAY_WORKER_URL: workerUrl,
      ...gatewayEnv,
    });
    stack = { worker, workerUrl, gatewayUrl: await gateway.listening };
  });
  afterAll(async () => {
    // A stopped process does not act on SIGTERM until it is continued.
    worker?.child.kill('SIGCONT');
    await gateway?.stop();
    await worker?.stop();
    await cleanup?.();
  });
  return () => {
    if (stack === undefined) throw new Error('the process stack is not running (used outside a test?)');
    return stack;
  };
}
