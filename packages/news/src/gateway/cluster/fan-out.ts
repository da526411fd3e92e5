import type { WorkerReply, WorkerRequest } from '../../protocol/index.ts';
import { GatewayError } from '../errors/index.ts';
import type { Part } from './merge.ts';
import type { Replica, ReplicaSet, Route } from './replica-set.ts';

/** The reply came from a replica that must not be used (another release, other shards): try another one. */
class ReplicaUnusable extends Error {
  override readonly name = 'ReplicaUnusable';
}

export interface FanOut {
  /**
   * Sends `build(group)` to one replica per group of needed shards, in parallel, each restricted to its group.
   * A replica that fails or turns out unusable is marked and its shards are asked of another replica while the
   * deadline allows. `needed` empty: one request to any up replica, restricted to no shard (it answers the
   * request's own errors, e.g. an unknown index, exactly as a single worker would).
   */
  run(
    index: string,
    needed: readonly string[],
    build: Build,
    deadline: number,
    options?: FanOutOptions,
  ): Promise<Part<WorkerReply>[]>;
}

/** The request for one replica and the shards it answers for. */
export type Build = (group: readonly string[], replica: Replica) => WorkerRequest;

export interface FanOutOptions {
  /** Every needed shard in one replica (a request that cannot be split). */
  readonly whole?: boolean;
  /** false: the request names its shards itself (continuations), so the worker needs no shard restriction. */
  readonly restrict?: boolean;
  /** Aborts every call (the HTTP client went away); each worker is told to stop. */
  readonly signal?: AbortSignal;
}

const NONE_TRIED: ReadonlySet<Replica> = new Set();

export function createFanOut(set: ReplicaSet, onUnusable: (r: Replica) => void): FanOut {
  const attempt = async (
    route: Route,
    index: string,
    build: Build,
    deadline: number,
    tried: ReadonlySet<Replica>,
    opts: FanOutOptions,
  ): Promise<Part<WorkerReply>[]> => {
    const { replica: r, group } = route;
    // With another replica to fall back on, one attempt may use half of what is left, so a frozen replica
    // still leaves time for the retry; the last candidate gets all of it.
    const now = performance.now();
    const until = route.alternative ? now + (deadline - now) / 2 : deadline;
    try {
      const reply = await r.client.call(
        build(group, r),
        until,
        opts.restrict === false ? undefined : set.restriction(r, index, group),
        opts.signal,
      );
      if (reply.indexVersion !== set.expected) {
        r.status = 'wrong_release';
        r.reason = `serves release ${reply.indexVersion}, not ${set.expected}`;
        throw new ReplicaUnusable(r.reason);
      }
      if (reply.kind === 'error' && reply.error.code === 'shards_not_served') {
        r.status = 'wrong_shards';
        r.reason = `no longer serves ${reply.error.shards.join(', ')}`;
        onUnusable(r);
        throw new ReplicaUnusable(r.reason);
      }
      return [{ shards: group, reply }];
    } catch (e) {
      if (e instanceof GatewayError) set.fail(r, e.detail);
      else if (!(e instanceof ReplicaUnusable)) throw e;
      if (performance.now() >= deadline) {
        throw new GatewayError(
          'worker_unavailable',
          `No worker answered within the deadline (last: ${r.url}, ${r.reason}); try again shortly.`,
        );
      }
      return run(index, group, build, deadline, opts, new Set([...tried, r]));
    }
  };

  const run = async (
    index: string,
    needed: readonly string[],
    build: Build,
    deadline: number,
    opts: FanOutOptions,
    tried: ReadonlySet<Replica> = NONE_TRIED,
  ): Promise<Part<WorkerReply>[]> => {
    if (needed.length === 0) {
      const r = set.any(tried);
      if (r === null) throw new GatewayError('worker_unavailable', 'No search worker is reachable; try again shortly.');
      const alternative = set.replicas.some((o) => o !== r && o.status === 'up' && !tried.has(o));
      return attempt({ replica: r, group: [], alternative }, index, build, deadline, tried, opts);
    }
    const routes = set.assign(index, needed, tried, opts.whole === true);
    if (routes.length === 1) return attempt(routes[0] as Route, index, build, deadline, tried, opts);
    const parts = await Promise.all(routes.map((route) => attempt(route, index, build, deadline, tried, opts)));
    // In route order (the merges and refusals read parts in release order); a plain loop, flat() cost ~1 µs.
    const out: Part<WorkerReply>[] = [];
    for (const group of parts) for (const part of group) out.push(part);
    return out;
  };

  return { run: (index, needed, build, deadline, options = {}) => run(index, needed, build, deadline, options) };
}
