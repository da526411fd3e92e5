import type { Logger } from 'pino';
import type { OpenRelease } from '../release/types.ts';
import { defaultRpcHandlerOptions } from './rpc-handler.ts';
import { createRoutedHandler } from './shard-view.ts';
import { startWorkerServer, type RunningServer } from './http-server.ts';

export { createRpcHandler, defaultRpcHandlerOptions, selectShards, type RpcHandler, type RpcHandlerOptions } from './rpc-handler.ts';
export { describeRelease } from './identity.ts';
export { createRoutedHandler, type RoutedHandler } from './shard-view.ts';
export type { RunningServer } from './http-server.ts';

export interface StartWorkerOptions {
  readonly host: string;
  readonly port: number;
  /** count/find results cached (LRU); 0 turns the cache off. */
  readonly cacheEntries?: number;
  /** The `--shards` spec the release was opened with, reported in the identity; null for the whole release. */
  readonly shardSpec?: string | null;
}
export const defaultWorkerOptions: StartWorkerOptions = { host: '127.0.0.1', port: 0, cacheEntries: defaultRpcHandlerOptions.cacheEntries };

/**
 * Serves an opened (and therefore verified) release over the internal protocol.
 * @example const w = await startWorker(release, { host: '127.0.0.1', port: 0 }, log); // w.url
 */
export async function startWorker(release: OpenRelease, opts: StartWorkerOptions, log: Logger): Promise<RunningServer> {
  const running = await startWorkerServer(
    createRoutedHandler(release, { ...defaultRpcHandlerOptions, cacheEntries: opts.cacheEntries ?? defaultRpcHandlerOptions.cacheEntries }, opts.shardSpec ?? null),
    opts, log);
  return {
    ...running,
    close: async () => { await running.close(); release.close(); },
  };
}
