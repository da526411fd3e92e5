import type { OpenRelease } from '../release/types.ts';
import type { WorkerReply, WorkerRequest } from '../protocol/index.ts';
import { createRpcHandler, type PendingReply, type RpcHandler, type RpcHandlerOptions } from './rpc-handler.ts';

/** Answers a request from every served shard (`shards` null) or from the listed ones only, within `budgetMs` (rpc-handler.ts). */
export type RoutedHandler = (
  request: WorkerRequest,
  shards: readonly string[] | null,
  budgetMs: number,
) => WorkerReply | PendingReply;

/** Distinct restrictions kept with their own handler (and result cache); a gateway sends few distinct sets. */
const MAX_VIEWS = 32;

/** The release as if it held only `ids`: the same readers and stores, fewer shards. */
function restrictRelease(release: OpenRelease, ids: ReadonlySet<string>): OpenRelease {
  return {
    indexVersion: release.indexVersion,
    indexes: new Map(
      [...release.indexes].map(([name, index]) => [
        name,
        { ...index, shards: index.shards.filter((s) => ids.has(s.shardId)) },
      ]),
    ),
    close: () => {},
  };
}

/**
 * The worker's handler with the gateway's shard restriction (protocol envelope `shards`): replicas of one shard
 * may sit on workers that also hold others, so the gateway names which shards each worker answers for. Every
 * existing request then runs unchanged on a restricted view of the release.
 */
export function createRoutedHandler(
  release: OpenRelease,
  opts: RpcHandlerOptions,
  shardSpec: string | null,
): RoutedHandler {
  const whole = createRpcHandler(release, opts, shardSpec);
  const served = new Set([...release.indexes.values()].flatMap((i) => i.shards.map((s) => s.shardId as string)));
  const views = new Map<string, RpcHandler>();
  return (request, shards, budgetMs) => {
    if (shards === null || request.kind === 'identity') return whole(request, budgetMs);
    const notServed = shards.filter((s) => !served.has(s));
    if (notServed.length > 0) {
      return {
        kind: 'error',
        indexVersion: release.indexVersion,
        error: { code: 'shards_not_served', shards: notServed, shardSpec },
      };
    }
    const key = [...shards].sort().join(',');
    let view = views.get(key);
    if (view === undefined) {
      if (views.size >= MAX_VIEWS) views.delete(views.keys().next().value as string);
      view = createRpcHandler(restrictRelease(release, new Set(shards)), opts, shardSpec);
    } else views.delete(key);
    // Re-inserted: the Map's order is least recently used first.
    views.set(key, view);
    return view(request, budgetMs);
  };
}
