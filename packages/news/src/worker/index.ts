import type { Logger } from 'pino';
import type { OpenRelease } from '../release/types.ts';
import { defaultRpcHandlerOptions } from './rpc-handler.ts';
import { createRoutedHandler } from './shard-view.ts';
import { startWorkerServer, type RunningServer } from './http-server.ts';
import { startBackgroundCheck } from './background-check.ts';
import { createDamageGuard } from './damage-guard.ts';
import type { DigestCheckSummary } from '../release/index.ts';

export {
  createRpcHandler,
  defaultRpcHandlerOptions,
  selectShards,
  type RpcHandler,
  type RpcHandlerOptions,
} from './rpc-handler.ts';
export { describeRelease } from './identity.ts';
export { createRoutedHandler, type RoutedHandler } from './shard-view.ts';
export type { RunningServer } from './http-server.ts';
export { ShardDamagedError, type DamageGuard } from './damage-guard.ts';

export interface StartWorkerOptions {
  readonly host: string;
  readonly port: number;
  /** count/find results cached (LRU); 0 turns the cache off. */
  readonly cacheEntries?: number;
  /** The `--shards` spec the release was opened with, reported in the identity; null for the whole release. */
  readonly shardSpec?: string | null;
  /**
   * The release's folder, to check every served file's sha256 after start-up while serving (for a release opened
   * with `verify: 'sizes'`); a damaged shard is taken out of service. Absent or null: no background check.
   */
  readonly backgroundCheck?: string | null;
}
export const defaultWorkerOptions: StartWorkerOptions = {
  host: '127.0.0.1',
  port: 0,
  cacheEntries: defaultRpcHandlerOptions.cacheEntries,
};

export interface RunningWorker extends RunningServer {
  /** Settles when the background check ends (null: none was asked for, or it stopped because the worker closed). */
  readonly backgroundCheck: Promise<DigestCheckSummary | null>;
}

/**
 * Serves an opened (and therefore verified) release over the internal protocol.
 * @example const w = await startWorker(release, { host: '127.0.0.1', port: 0 }, log); // w.url
 */
export async function startWorker(release: OpenRelease, opts: StartWorkerOptions, log: Logger): Promise<RunningWorker> {
  const handlerOptions = {
    ...defaultRpcHandlerOptions,
    cacheEntries: opts.cacheEntries ?? defaultRpcHandlerOptions.cacheEntries,
  };
  const guard = createDamageGuard(release, (r) => createRoutedHandler(r, handlerOptions, opts.shardSpec ?? null));
  const running = await startWorkerServer(guard.handle, opts, log);
  const check = opts.backgroundCheck == null ? null : startBackgroundCheck(opts.backgroundCheck, release, guard, log);
  return {
    ...running,
    backgroundCheck: check?.done ?? Promise.resolve(null),
    close: async () => {
      check?.stop();
      await check?.done;
      await running.close();
      release.close();
    },
  };
}
