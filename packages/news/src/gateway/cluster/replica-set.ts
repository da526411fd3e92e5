import {
  selectShardIds,
  ShardSpecError,
  type ReleaseShard,
  type ShardIdentity,
  type WorkerIdentity,
} from '../../protocol/index.ts';
import type { WorkerEndpoint } from '../config/index.ts';
import { GatewayError } from '../errors/index.ts';
import type { WorkerClient } from '../worker-client/index.ts';

/**
 * up: identity confirmed (configured release, expected shards); down: a call or probe failed; wrong_release /
 * wrong_shards: answers, but must never be used; unknown: not heard from yet.
 */
export type ReplicaStatus = 'unknown' | 'up' | 'down' | 'wrong_release' | 'wrong_shards';

export interface Replica {
  readonly url: string;
  readonly client: WorkerClient;
  readonly endpoint: WorkerEndpoint;
  status: ReplicaStatus;
  reason: string;
  identity: WorkerIdentity | null;
  /** The shards it serves, per index, from its identity. */
  served: Map<string, Set<string>>;
}

const NONE: ReadonlySet<string> = new Set();

/** Whether the replica serves the shard (no string building: this runs per shard per request). */
export function holds(r: Replica, index: string, shardId: string): boolean {
  return (r.served.get(index) ?? NONE).has(shardId);
}

const key = (index: string, shardId: string) => `${index}\u0000${shardId}`;

/** One replica's share of a request: the shards it answers for, and whether another candidate holds them all. */
export interface Route {
  readonly replica: Replica;
  readonly group: readonly string[];
  /** Another up replica (not avoided) serves every shard of the group: a failed attempt has somewhere to go. */
  readonly alternative: boolean;
}

/** The release's shard list per index, and each shard's figures, as the workers report them. */
export interface ReleaseMap {
  readonly shards: ReadonlyMap<string, readonly ReleaseShard[]>;
  readonly stats: ReadonlyMap<string, ShardIdentity>;
  readonly hasCountryAttribution: ReadonlyMap<string, boolean>;
}

/**
 * The replicas and what they serve. Identity answers update it (`observe`), call failures mark a replica down
 * (`fail`), and `assign` maps needed shards to up replicas, rotating between replicas of the same shards.
 */
export class ReplicaSet {
  readonly replicas: readonly Replica[];
  release: ReleaseMap | null = null;
  #turn = 0;
  readonly #allIds = new Map<string, readonly string[] | null>();
  /** Year-selected shard ids per index and clamped range, the same array each time (so its routes can be cached). */
  readonly #inYears = new Map<string, Map<string, readonly string[]>>();
  /**
   * Routes of the shard lists above, per rotation start. Most requests ask the same few lists, and working the
   * plan out per request (a lookup per shard per replica) was the largest gateway cost of a fanned-out count.
   */
  #routes = new WeakMap<readonly string[], (readonly Route[] | undefined)[]>();
  /** The lists `idsInYears` and `allIdsOf` handed out (only those come back, so only their routes are kept). */
  readonly #routable = new WeakSet<readonly string[]>();
  /** What the cached routes were worked out from: each replica's up-ness and served map (replaced on change). */
  #routedFrom: readonly (Map<string, Set<string>> | null)[] = [];

  constructor(
    replicas: readonly Replica[],
    readonly expected: string,
  ) {
    this.replicas = replicas;
  }

  /** Records an identity answer: up only on the configured release and, with a topology file, the declared shards. */
  observe(r: Replica, identity: WorkerIdentity): void {
    r.identity = identity;
    if (identity.indexVersion !== this.expected) {
      r.status = 'wrong_release';
      r.reason = `serves release ${identity.indexVersion}, not ${this.expected}`;
      r.served = new Map();
      return;
    }
    const served = new Map(identity.indexes.map((i) => [i.name, new Set(i.shards.map((s) => s.shardId))]));
    const declared = r.endpoint.shards;
    if (declared !== null) {
      const problem = declaredMismatch(declared.text, identity, () =>
        identity.indexes.map((i) =>
          selectShardIds(
            declared,
            i.releaseShards.map((s) => s.shardId),
          ),
        ),
      );
      if (problem !== null) {
        r.status = 'wrong_shards';
        r.reason = problem;
        r.served = new Map();
        return;
      }
    }
    r.served = served;
    r.status = 'up';
    r.reason = '';
    if (this.release === null) this.release = releaseMapOf(identity);
    const stats = this.release.stats as Map<string, ShardIdentity>;
    for (const i of identity.indexes) for (const s of i.shards) stats.set(key(i.name, s.shardId), s);
  }

  /**
   * The restriction to send with a group: none when the group is everything the replica serves of the index (the
   * worker then answers from its whole release, with its result cache, and nobody encodes or parses the list).
   */
  restriction(r: Replica, index: string, group: readonly string[]): readonly string[] | undefined {
    return group.length > 0 && r.served.get(index)?.size === group.length ? undefined : group;
  }

  fail(r: Replica, why: string): void {
    r.status = 'down';
    r.reason = why;
  }

  /** The release's shards of `index` (chronological), or undefined when no worker reported that index. */
  shardsOf(index: string): readonly ReleaseShard[] | undefined {
    return this.release?.shards.get(index);
  }

  /** Every shard id of `index`, chronological (cached: asked by most requests). */
  allIdsOf(index: string): readonly string[] | null {
    const cached = this.#allIds.get(index);
    if (cached !== undefined) return cached;
    const ids = this.shardsOf(index)?.map((s) => s.shardId) ?? [];
    const out = ids.length === 0 ? null : ids;
    if (this.release !== null) this.#allIds.set(index, out);
    if (out !== null) this.#routable.add(out);
    return out;
  }

  /**
   * The shard ids of `index` whose crawl year lies in [min, max] (null: unbounded), chronological; null when the
   * index is unknown or nothing is selected. The range is clamped to the index's years, so the cache stays small.
   */
  idsInYears(index: string, min: number | null, max: number | null): readonly string[] | null {
    if (min === null && max === null) return this.allIdsOf(index);
    const shards = this.shardsOf(index);
    if (shards === undefined || shards.length === 0) return null;
    let first = Infinity;
    let last = -Infinity;
    for (const s of shards) {
      const y = Number(s.year);
      if (y < first) first = y;
      if (y > last) last = y;
    }
    const lo = Math.max(min ?? -Infinity, first);
    const hi = Math.min(max ?? Infinity, last);
    if (!(lo <= hi)) return null;
    let byRange = this.#inYears.get(index);
    if (byRange === undefined) this.#inYears.set(index, (byRange = new Map()));
    const rangeKey = `${lo}:${hi}`;
    const cached = byRange.get(rangeKey);
    if (cached !== undefined) return cached.length === 0 ? null : cached;
    const ids = shards.filter((s) => Number(s.year) >= lo && Number(s.year) <= hi).map((s) => s.shardId);
    byRange.set(rangeKey, ids);
    this.#routable.add(ids);
    return ids.length === 0 ? null : ids;
  }

  /** Shards (`index shardId`) of the release without an up replica, chronological. */
  missing(): string[] {
    if (this.release === null) return [];
    const out: string[] = [];
    for (const [index, shards] of this.release.shards) {
      for (const s of shards)
        if (!this.replicas.some((r) => r.status === 'up' && holds(r, index, s.shardId))) out.push(s.shardId);
    }
    return out;
  }

  /**
   * Each needed shard to one up replica not in `avoid`; the replica order turns per call, so replicas holding the
   * same shards share the load while one call still goes to as few workers as possible.
   * Throws `shards_unavailable` naming every shard without a candidate.
   */
  assign(index: string, shardIds: readonly string[], avoid: ReadonlySet<Replica>, whole = false): readonly Route[] {
    const n = this.replicas.length;
    const start = this.#turn++ % n;
    this.#dropStaleRoutes();
    const cacheable = avoid.size === 0 && !whole;
    const cached = cacheable ? this.#routes.get(shardIds) : undefined;
    const hit = cached?.[start];
    if (hit !== undefined) return hit;
    const order = this.replicas
      .map((_, i) => this.replicas[(start + i) % n] as Replica)
      .filter((r) => r.status === 'up' && !avoid.has(r));
    const routes = this.#plan(order, index, shardIds, whole);
    if (cacheable && this.#routable.has(shardIds)) {
      const perStart = cached ?? new Array<readonly Route[] | undefined>(n);
      perStart[start] = routes;
      if (cached === undefined) this.#routes.set(shardIds, perStart);
    }
    return routes;
  }

  /** Forgets the cached routes when a replica went up or down or changed its shards since they were worked out. */
  #dropStaleRoutes(): void {
    const from = this.#routedFrom;
    const now = this.replicas;
    let same = from.length === now.length;
    for (let i = 0; same && i < now.length; i++) {
      const r = now[i] as Replica;
      same = from[i] === (r.status === 'up' ? r.served : null);
    }
    if (!same) {
      this.#routes = new WeakMap();
      this.#routedFrom = now.map((r) => (r.status === 'up' ? r.served : null));
    }
  }

  #plan(order: readonly Replica[], index: string, shardIds: readonly string[], whole: boolean): readonly Route[] {
    const alternative = (r: Replica, group: readonly string[]) =>
      order.some((o) => o !== r && group.every((id) => holds(o, index, id)));
    if (whole) {
      const holder = order.find((r) => shardIds.every((id) => holds(r, index, id)));
      if (holder !== undefined)
        return [{ replica: holder, group: [...shardIds], alternative: alternative(holder, shardIds) }];
      const missing = shardIds.filter((id) => !order.some((r) => holds(r, index, id)));
      if (missing.length > 0) throw shardsUnavailable(missing);
      throw new GatewayError(
        'not_distributed',
        `This request needs shards ${shardIds[0]} to ${shardIds.at(-1)} in one worker, and no healthy worker holds them all; narrow year_min/year_max to shards one worker serves.`,
        { shards: [...shardIds] },
      );
    }
    const plan = new Map<Replica, string[]>();
    const missing: string[] = [];
    for (const id of shardIds) {
      const r = order.find((c) => holds(c, index, id));
      if (r === undefined) {
        missing.push(id);
        continue;
      }
      const group = plan.get(r);
      if (group === undefined) plan.set(r, [id]);
      else group.push(id);
    }
    if (missing.length > 0) throw shardsUnavailable(missing);
    return [...plan].map(([replica, group]) => ({ replica, group, alternative: alternative(replica, group) }));
  }

  /** Whether one up replica serves every one of the shards. */
  oneHolds(index: string, shardIds: readonly string[]): boolean {
    return this.replicas.some((r) => r.status === 'up' && shardIds.every((id) => holds(r, index, id)));
  }

  /** Any up replica (for requests that need no shard: unknown index, empty year range), or null. */
  any(avoid: ReadonlySet<Replica>): Replica | null {
    const ups = this.replicas.filter((r) => r.status === 'up' && !avoid.has(r));
    return ups.length === 0 ? null : (ups[this.#turn++ % ups.length] as Replica);
  }
}

export function shardsUnavailable(missing: readonly string[]): GatewayError {
  const shown =
    missing.length > 20 ? `${missing.slice(0, 20).join(', ')}, … (${missing.length} in all)` : missing.join(', ');
  return new GatewayError(
    'shards_unavailable',
    `No healthy worker serves shard${missing.length === 1 ? '' : 's'} ${shown} of this release; the answer would be incomplete. Retry shortly.`,
    { missing_shards: missing },
  );
}

function releaseMapOf(identity: WorkerIdentity): ReleaseMap {
  return {
    shards: new Map(identity.indexes.map((i) => [i.name, i.releaseShards])),
    stats: new Map(),
    hasCountryAttribution: new Map(identity.indexes.map((i) => [i.name, i.hasCountryAttribution])),
  };
}

/** Null when the worker serves exactly the shards the topology file declares for it, else what differs. */
function declaredMismatch(spec: string, identity: WorkerIdentity, expectedPerIndex: () => string[][]): string | null {
  let expected: string[][];
  try {
    expected = expectedPerIndex();
  } catch (e) {
    if (e instanceof ShardSpecError) return `topology shards ${spec}: ${e.message}`;
    throw e;
  }
  for (const [i, ix] of identity.indexes.entries()) {
    const have = ix.shards.map((s) => s.shardId).join(',');
    const want = (expected[i] ?? []).join(',');
    if (have !== want)
      return `serves shards ${have || 'none'} of index ${ix.name}; the topology declares ${spec} (${want || 'none'})`;
  }
  return null;
}
