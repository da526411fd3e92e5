import { selectShardIds, ShardSpecError, type ReleaseShard, type ShardIdentity, type WorkerIdentity } from '../../protocol/index.ts';
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

  constructor(replicas: readonly Replica[], readonly expected: string) {
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
      const problem = declaredMismatch(declared.text, identity, () => identity.indexes.map((i) => selectShardIds(declared, i.releaseShards.map((s) => s.shardId))));
      if (problem !== null) { r.status = 'wrong_shards'; r.reason = problem; r.served = new Map(); return; }
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
    return out;
  }

  /** Shards (`index shardId`) of the release without an up replica, chronological. */
  missing(): string[] {
    if (this.release === null) return [];
    const out: string[] = [];
    for (const [index, shards] of this.release.shards) {
      for (const s of shards) if (!this.replicas.some((r) => r.status === 'up' && holds(r, index, s.shardId))) out.push(s.shardId);
    }
    return out;
  }

  /**
   * Each needed shard to one up replica not in `avoid`; the replica order turns per call, so replicas holding the
   * same shards share the load while one call still goes to as few workers as possible.
   * Throws `shards_unavailable` naming every shard without a candidate.
   */
  assign(index: string, shardIds: readonly string[], avoid: ReadonlySet<Replica>, whole = false): Map<Replica, string[]> {
    const n = this.replicas.length;
    const start = this.#turn++ % n;
    const order = this.replicas.map((_, i) => this.replicas[(start + i) % n] as Replica).filter((r) => r.status === 'up' && !avoid.has(r));
    if (whole) {
      const holder = order.find((r) => shardIds.every((id) => holds(r, index, id)));
      if (holder !== undefined) return new Map([[holder, [...shardIds]]]);
      const missing = shardIds.filter((id) => !order.some((r) => holds(r, index, id)));
      if (missing.length > 0) throw shardsUnavailable(missing);
      throw new GatewayError('not_distributed',
        `This request needs shards ${shardIds[0]} to ${shardIds.at(-1)} in one worker, and no healthy worker holds them all; narrow year_min/year_max to shards one worker serves.`,
        { shards: [...shardIds] });
    }
    const plan = new Map<Replica, string[]>();
    const missing: string[] = [];
    for (const id of shardIds) {
      const r = order.find((c) => holds(c, index, id));
      if (r === undefined) { missing.push(id); continue; }
      const group = plan.get(r);
      if (group === undefined) plan.set(r, [id]);
      else group.push(id);
    }
    if (missing.length > 0) throw shardsUnavailable(missing);
    return plan;
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
  const shown = missing.length > 20 ? `${missing.slice(0, 20).join(', ')}, … (${missing.length} in all)` : missing.join(', ');
  return new GatewayError('shards_unavailable',
    `No healthy worker serves shard${missing.length === 1 ? '' : 's'} ${shown} of this release; the answer would be incomplete. Retry shortly.`,
    { missing_shards: missing });
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
    if (have !== want) return `serves shards ${have || 'none'} of index ${ix.name}; the topology declares ${spec} (${want || 'none'})`;
  }
  return null;
}
