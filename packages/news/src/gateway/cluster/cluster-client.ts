import type {
  V2SearchResult,
  V2TimelineBody,
  IndexIdentity,
  ReplyFor,
  V2CombineContext as CombineContext,
  V2Kind,
  V2WorkerReply,
  V2WorkerRequest,
  WorkerReply,
  WorkerRequest,
} from '../../protocol/index.ts';
import { assertNever, v2CallOf } from '../../protocol/index.ts';
import type { WorkerEndpoint } from '../config/index.ts';
import { GatewayError } from '../errors/index.ts';
import { createWorkerClient, type Outcome, type WorkerClient } from '../worker-client/index.ts';
import { createFanOut, type FanOutOptions } from './fan-out.ts';
import { mergeV1Count, mergeV1Find, type Part } from './merge.ts';
import { splitMetadata } from './metadata-split.ts';
import { estimateAcross } from './estimate-split.ts';
import { searchAcross } from './search-split.ts';
import { timelineAcross } from './timeline-split.ts';
import { ReplicaSet, type Replica, type ReplicaStatus } from './replica-set.ts';

export interface ClusterOptions {
  /** The budget of one public request, as for one worker (GATEWAY_WORKER_TIMEOUT_MS). */
  readonly timeoutMs: number;
  /** Calls in flight per replica (on its one stream; the rest wait in admission). */
  readonly connections: number;
  /** How often a replica that is down (or not heard from) is asked for its identity. */
  readonly probeIntervalMs: number;
  /** How often an up replica's identity is asked again (a restart with other flags shows up here at the latest). */
  readonly refreshIntervalMs: number;
}

/** How long an identity question (health, the v2 release check) waits for fresh probes before using what is known. */
const IDENTITY_WAIT_MS = 200;

export const defaultClusterOptions: ClusterOptions = {
  timeoutMs: 2000,
  connections: 16,
  probeIntervalMs: 250,
  refreshIntervalMs: 1000,
};

export interface ReplicaReport {
  readonly url: string;
  readonly status: ReplicaStatus;
  readonly reason: string;
  readonly shards: readonly string[];
}

export interface ClusterClient extends WorkerClient {
  replicas(): readonly ReplicaReport[];
}

/** The year-selected shard ids of `index`, or null when the index is unknown or the range is empty or reversed. */
function inYears(
  set: ReplicaSet,
  index: string,
  min: number | null | undefined,
  max: number | null | undefined,
): readonly string[] | null {
  return set.idsInYears(index, min ?? null, max ?? null);
}

/** The refusal of the chronologically first part that refused, if any (each worker checks the request the same way). */
function firstRefusal(parts: readonly Part<WorkerReply>[]): WorkerReply | null {
  for (const p of parts) {
    const r = p.reply;
    if (r.kind === 'error' || ('outcome' in r && !r.outcome.ok)) return r;
  }
  return null;
}

/**
 * A `WorkerClient` over several worker replicas, each serving a subset of the release's shards (DESIGN.md,
 * "Routing"): it routes every request to replicas of the shards it needs, merges their answers, retries on another
 * replica, marks failing replicas down and probes them back. Routes use it exactly as they use one worker.
 */
export function createClusterClient(
  endpoints: readonly WorkerEndpoint[],
  expected: string,
  opts: ClusterOptions = defaultClusterOptions,
): ClusterClient {
  const replicas: Replica[] = endpoints.map((endpoint) => ({
    url: endpoint.url,
    endpoint,
    status: 'unknown',
    reason: 'not asked yet',
    identity: null,
    served: new Map(),
    // One quick retry on the same replica for a dropped keep-alive connection; other failures go to another replica.
    client: createWorkerClient(endpoint.url, {
      timeoutMs: opts.timeoutMs,
      connections: opts.connections,
      retries: 1,
      retryDelayMs: 25,
    }),
  }));
  const set = new ReplicaSet(replicas, expected);
  const inflight = new Map<Replica, Promise<void>>();
  const lastProbe = new Map<Replica, number>();

  /** Asks a replica for its identity; never rejects (a failure marks it down). */
  const probe = (r: Replica, deadline: number): Promise<void> => {
    const running = inflight.get(r);
    if (running !== undefined) return running;
    const p = (async () => {
      try {
        const reply = await r.client.call({ kind: 'identity' }, deadline);
        if (reply.kind === 'identity') set.observe(r, reply.identity);
        else set.fail(r, `refused identity: ${reply.error.code}`);
      } catch (e) {
        set.fail(r, e instanceof GatewayError ? e.detail : 'identity call failed');
      } finally {
        lastProbe.set(r, performance.now());
        inflight.delete(r);
      }
    })();
    inflight.set(r, p);
    return p;
  };
  const probeAll = (deadline: number) => Promise.all(replicas.map((r) => probe(r, deadline)));
  const fan = createFanOut(set, (r) => {
    void probe(r, performance.now() + opts.timeoutMs);
  });

  const timer = setInterval(() => {
    const now = performance.now();
    for (const r of replicas) {
      const age = now - (lastProbe.get(r) ?? -Infinity);
      if (age >= (r.status === 'up' ? opts.refreshIntervalMs : opts.probeIntervalMs))
        void probe(r, now + Math.min(opts.timeoutMs, 1000));
    }
  }, opts.probeIntervalMs);
  timer.unref();
  void probeAll(performance.now() + opts.timeoutMs);

  const v2Reply = <K extends V2Kind>(kind: K, result: unknown): WorkerReply =>
    ({ kind, indexVersion: expected, outcome: { ok: true, json: JSON.stringify(result) } }) as Extract<
      V2WorkerReply,
      { kind: K }
    >;
  const v2Results = <T>(parts: readonly Part<WorkerReply>[]): T[] =>
    parts.map((p) => JSON.parse((p.reply as { outcome: { json: string } }).outcome.json) as T);

  /** The whole release as the up replicas serve it; a release no replica serves is another release or unreachable. */
  const identity = async (deadline: number): Promise<WorkerReply> => {
    // Fresh answers where replicas reply quickly; a frozen one must not hold every v2 request's release check.
    const fresh = probeAll(deadline);
    if (set.release === null) await fresh;
    else
      await Promise.race([
        fresh,
        new Promise((r) =>
          setTimeout(r, Math.max(0, Math.min(IDENTITY_WAIT_MS, deadline - performance.now()))).unref(),
        ),
      ]);
    const release = set.release;
    if (release === null || !replicas.some((r) => r.status === 'up')) {
      const wrong = replicas.find((r) => r.status === 'wrong_release' && r.identity !== null);
      if (wrong?.identity)
        return { kind: 'identity', indexVersion: wrong.identity.indexVersion, identity: wrong.identity };
      throw new GatewayError(
        'worker_unavailable',
        `No worker serves release ${expected}: ${replicas.map((r) => `${r.url} ${r.status} (${r.reason})`).join('; ')}.`,
      );
    }
    const missing = new Set(set.missing());
    const indexes: IndexIdentity[] = [...release.shards].map(([name, shards]) => ({
      name,
      hasCountryAttribution: release.hasCountryAttribution.get(name) ?? false,
      shards: shards
        .filter((s) => !missing.has(s.shardId))
        .flatMap((s) => release.stats.get(`${name}\u0000${s.shardId}`) ?? []),
      releaseShards: shards,
    }));
    return { kind: 'identity', indexVersion: expected, identity: { indexVersion: expected, shardSpec: null, indexes } };
  };

  /** A request answered by merging the parts, or by the one part when a single worker held every needed shard. */
  const gather = async (
    index: string,
    ids: readonly string[] | null,
    request: WorkerRequest,
    deadline: number,
    signal: AbortSignal | undefined,
    merge?: (parts: readonly Part<WorkerReply>[]) => WorkerReply,
    options: FanOutOptions = {},
  ): Promise<WorkerReply> => {
    const parts = await fan.run(
      index,
      ids ?? [],
      () => request,
      deadline,
      signal === undefined ? options : { ...options, signal },
    );
    if (parts.length === 1 || merge === undefined) return (parts[0] as Part<WorkerReply>).reply;
    return firstRefusal(parts) ?? merge(parts);
  };

  /** A v2 call routed the way its declaration says (search-v2/calls/define.ts, `Routing`), combined by its own `combine`. */
  const routeV2 = async (
    request: V2WorkerRequest,
    deadline: number,
    signal: AbortSignal | undefined,
  ): Promise<WorkerReply> => {
    const routing = v2CallOf(request.kind).routing;
    const combined =
      (ids: readonly string[] | null, combine: (parts: readonly unknown[], ctx: CombineContext) => unknown) =>
      (parts: readonly Part<WorkerReply>[]) =>
        v2Reply(request.kind, combine(v2Results(parts), { order: ids ?? [], indexVersion: expected }));
    switch (routing.by) {
      case 'years': {
        const sel = routing.of(request.body);
        const ids = inYears(set, sel.index, sel.year_min, sel.year_max);
        return gather(
          sel.index,
          ids,
          request,
          deadline,
          signal,
          combined(ids, (p, c) => routing.combine(p, c, request.body)),
        );
      }
      case 'index': {
        const asked = routing.of(request.body).index;
        const names = set.release === null ? [] : [...set.release.shards.keys()];
        const name = asked ?? (names.includes('news') ? 'news' : names[0]);
        const ids = name === undefined ? null : (set.shardsOf(name)?.map((s) => s.shardId) ?? null);
        return gather(
          name ?? '',
          ids !== null && ids.length > 0 ? ids : null,
          request,
          deadline,
          signal,
          combined(ids, (p, c) => routing.combine(p, c, request.body)),
        );
      }
      case 'shard': {
        // Every continuation names its shard: a replica of that shard answers it whole.
        const { index, shard_id: shardId } = routing.of(request.body);
        const known = set.shardsOf(index)?.some((s) => s.shardId === shardId) === true;
        return gather(index, known ? [shardId] : null, request, deadline, signal, undefined, { restrict: !known });
      }
      case 'references': {
        const body = routing.of(request.body);
        if (set.shardsOf(body.index) === undefined) return gather(body.index, null, request, deadline, signal);
        return splitMetadata(set, fan, body, deadline);
      }
      case 'estimate': {
        const b = routing.of(request.body);
        const ids = inYears(set, b.index, b.year_min, b.year_max);
        // One replica holding every selected shard answers whole (one call instead of two rounds).
        if (ids === null || set.oneHolds(b.index, ids))
          return gather(b.index, ids, request, deadline, signal, undefined, { whole: true });
        return estimateAcross(set, fan, b, ids, deadline, signal);
      }
      case 'timeline': {
        const b = routing.of(request.body);
        const ids = inYears(set, b.index, b.year_min, b.year_max);
        const years = (body: V2TimelineBody) =>
          gather(
            b.index,
            ids,
            { kind: 'v2_timeline', body },
            deadline,
            signal,
            combined(ids, (p, c) => routing.combine(p, c, body)),
          );
        // Without dedupe, or with one replica holding every selected shard, a `years` call (that worker decides).
        if (ids === null || (b.dedupe ?? 'none') === 'none' || set.oneHolds(b.index, ids)) return years(b);
        return timelineAcross({ set, fan, ids, deadline, signal, kind: 'v2_timeline' }, b, years);
      }
      case 'search': {
        const b = routing.of(request.body);
        const ids = inYears(set, b.index, b.year_min, b.year_max);
        return searchAcross(
          set,
          fan,
          b,
          ids,
          (parts, ctx, _body, copies) => routing.combine(parts, ctx, request.body, copies) as V2SearchResult,
          deadline,
          signal,
        );
      }
      case 'internal':
        // Steps the gateway sends to workers itself (estimateAcross); no route sends them through this client.
        throw new GatewayError('worker_unavailable', `${request.kind} is sent to workers by the gateway itself.`);
      default:
        return assertNever(routing, 'v2 routing');
    }
  };

  const route = async (
    request: WorkerRequest,
    deadline: number,
    signal: AbortSignal | undefined,
  ): Promise<WorkerReply> => {
    if (set.release === null) await probeAll(deadline);
    switch (request.kind) {
      case 'identity':
        return identity(deadline);
      case 'count': {
        const ids = inYears(set, request.index, request.yearMin, request.yearMax);
        return gather(request.index, ids, request, deadline, signal, (p) =>
          mergeV1Count(p as Part<ReplyFor<'count'>>[], expected),
        );
      }
      case 'find': {
        const ids = inYears(set, request.index, request.yearMin, request.yearMax);
        return gather(request.index, ids, request, deadline, signal, (p) =>
          mergeV1Find(ids ?? [], p as Part<ReplyFor<'find'>>[], expected),
        );
      }
      case 'get_doc': {
        // `s` indexes the release's year-selected shards; the worker is asked about that one shard as its s = 0.
        const ids = inYears(set, request.index, request.yearMin, request.yearMax);
        if (ids === null) return gather(request.index, null, request, deadline, signal);
        const id = ids[request.s];
        if (id === undefined)
          return {
            kind: 'error',
            indexVersion: expected,
            error: { code: 'shard_out_of_range', s: request.s, shardCount: ids.length },
          };
        // Without a restriction (the worker keeps its result cache and whole view): s is the shard's position among
        // the replica's own year-selected shards.
        const localS = (r: Replica) =>
          (r.identity?.indexes.find((i) => i.name === request.index)?.shards ?? [])
            .filter(
              (x) =>
                Number(x.year) >= (request.yearMin ?? -Infinity) && Number(x.year) <= (request.yearMax ?? Infinity),
            )
            .findIndex((x) => x.shardId === id);
        const [part] = await fan.run(request.index, [id], (_g, r) => ({ ...request, s: localS(r) }), deadline, {
          restrict: false,
          signal,
        });
        const reply = (part as Part<WorkerReply>).reply;
        if (reply.kind === 'error' && reply.error.code === 'rank_out_of_range')
          return { ...reply, error: { ...reply.error, s: request.s } };
        return reply;
      }
      default:
        return routeV2(request, deadline, signal);
    }
  };

  let lastSeen: string | null = null;
  return {
    timeoutMs: opts.timeoutMs,
    get lastSeenIndexVersion() {
      return lastSeen;
    },
    missingShards: () => set.missing(),
    replicas: () =>
      replicas.map((r) => ({
        url: r.url,
        status: r.status,
        reason: r.reason,
        shards: [...r.served.values()].flatMap((ids) => [...ids]),
      })),
    async call(request, deadline = performance.now() + opts.timeoutMs, _shards, signal) {
      const reply = await route(request, deadline, signal);
      lastSeen = reply.indexVersion;
      return reply as Outcome<typeof request.kind>;
    },
    close: async () => {
      clearInterval(timer);
      await Promise.all(replicas.map((r) => r.client.close()));
    },
  };
}
