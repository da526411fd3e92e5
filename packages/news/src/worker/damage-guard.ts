import type { ShardDamage } from '../release/index.ts';
import type { OpenRelease, ShardHandle } from '../release/types.ts';
import type { ShardReader } from '../shard/index.ts';
import type { DamagedShard, WorkerReply } from '../protocol/index.ts';
import type { RoutedHandler } from './shard-view.ts';
import { PendingReply } from './rpc-handler.ts';

/** Thrown by a damaged shard's reader: whatever request touched it is answered `shard_damaged`. */
export class ShardDamagedError extends Error {
  override readonly name = 'ShardDamagedError';
  constructor(readonly shard: DamagedShard) {
    super(`shard ${shard.shardId} is damaged: ${shard.reason}`);
  }
}

/** The worker's handler with shards taken out of service as damage is found. */
export interface DamageGuard {
  readonly handle: RoutedHandler;
  /** Takes the shard out of service from the next request on (a fresh handler: no cached answer from it survives). */
  markDamaged(damage: ShardDamage): void;
  readonly damaged: readonly DamagedShard[];
}

/**
 * Wraps the handler that `makeHandler` builds over a release: a damaged shard's reader throws on every query (its
 * `stats`, from the header checked on open, stay), the error becomes the `shard_damaged` reply, and identity
 * replies drop the shard from the served ones and list it under `damagedShards`, so a gateway reports it in health
 * and routes around it. Requests that touch only intact shards are answered as before.
 */
export function createDamageGuard(
  release: OpenRelease,
  makeHandler: (release: OpenRelease) => RoutedHandler,
): DamageGuard {
  const damaged = new Map<string, DamagedShard>();
  let inner = makeHandler(release);
  const key = (index: string, shardId: string): string => `${index}\0${shardId}`;

  // A v2 reply is computed after this returns: its damage arrives as the pending reply's rejection.
  const refusal = (e: unknown): WorkerReply => {
    if (!(e instanceof ShardDamagedError)) throw e;
    return {
      kind: 'error',
      indexVersion: release.indexVersion,
      error: {
        code: 'shard_damaged',
        shards: [e.shard.shardId],
        detail: `shard ${e.shard.shardId} is out of service: ${e.shard.reason}; restore the release from its source (or rebuild it) and restart the worker`,
      },
    };
  };

  const handle: RoutedHandler = (request, shards, budgetMs) => {
    try {
      const reply = inner(request, shards, budgetMs);
      if (reply instanceof PendingReply) return new PendingReply(reply.work, reply.reply.catch(refusal));
      return reply.kind === 'identity' && damaged.size > 0 ? withDamage(reply, [...damaged.values()]) : reply;
    } catch (e) {
      return refusal(e);
    }
  };

  return {
    handle,
    get damaged() {
      return [...damaged.values()];
    },
    markDamaged(d) {
      if (damaged.has(key(d.index, d.shardId))) return;
      damaged.set(key(d.index, d.shardId), { index: d.index, shardId: d.shardId, reason: `${d.file}: ${d.reason}` });
      inner = makeHandler(withDamagedReaders(release, (index, s) => damaged.get(key(index, s.shardId))));
    },
  };
}

function withDamage(reply: Extract<WorkerReply, { kind: 'identity' }>, list: readonly DamagedShard[]): WorkerReply {
  const out = new Set(list.map((d) => `${d.index}\0${d.shardId}`));
  return {
    ...reply,
    identity: {
      ...reply.identity,
      indexes: reply.identity.indexes.map((i) => ({
        ...i,
        shards: i.shards.filter((s) => !out.has(`${i.name}\0${s.shardId}`)),
      })),
      damagedShards: list,
    },
  };
}

/** The release with each damaged shard's reader replaced by one that refuses every query. */
function withDamagedReaders(
  release: OpenRelease,
  damageOf: (index: string, s: ShardHandle) => DamagedShard | undefined,
): OpenRelease {
  return {
    indexVersion: release.indexVersion,
    indexes: new Map(
      [...release.indexes].map(([name, index]) => [
        name,
        {
          ...index,
          shards: index.shards.map((s) => {
            const d = damageOf(name, s);
            return d === undefined ? s : { ...s, reader: refusingReader(s.reader, d) };
          }),
        },
      ]),
    ),
    close: () => release.close(),
  };
}

/** A reader whose `stats` still answer and whose every query throws ShardDamagedError (close still closes). */
function refusingReader(reader: ShardReader, damage: DamagedShard): ShardReader {
  return new Proxy(reader, {
    get(target, prop) {
      // The target as receiver: readers may keep private fields, which a getter cannot read through the proxy.
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      if (prop === 'close') return value.bind(target);
      return () => {
        throw new ShardDamagedError(damage);
      };
    },
  });
}
