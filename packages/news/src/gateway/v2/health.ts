import type { BindingState } from '../worker-client/index.ts';
import { assertNever, type DamagedShard } from '../../protocol/index.ts';

/** Routed deployments only: the replicas and which shards lack a healthy one. */
export interface ClusterHealth {
  readonly missing: readonly string[];
  readonly workers: readonly {
    readonly url: string;
    readonly status: string;
    readonly reason: string;
    readonly shards: readonly string[];
  }[];
}

export type HealthBody =
  | {
      readonly status: 'ok';
      readonly index_version: string;
      readonly shards: readonly { index: string; shard_id: string; year: string; documents: number }[];
    }
  | {
      readonly status: 'unavailable';
      readonly reason: string;
      readonly gateway_index_version: string;
      readonly worker_index_version: string | null;
      readonly missing_shards?: readonly string[];
      readonly damaged_shards?: readonly DamagedShard[];
    };

/**
 * GET /api/v2/health: 200 only when the worker serves the configured release (binding rule 4) and, routed over
 * several workers, every shard of it has a healthy replica; else 503 (listing the shards without one).
 */
export function healthFromBinding(
  state: BindingState,
  expected: string,
  cluster?: ClusterHealth,
): { status: 200 | 503; body: HealthBody } {
  const workers = cluster === undefined || cluster.workers.length === 0 ? {} : { workers: cluster.workers };
  // Routed over several workers, a damaged shard is simply not served by its worker (missing unless a replica has it).
  const answer = healthOf(
    state,
    expected,
    cluster?.missing ?? [],
    cluster === undefined || cluster.workers.length === 0,
  );
  return { status: answer.status, body: { ...answer.body, ...workers } };
}

function healthOf(
  state: BindingState,
  expected: string,
  missing: readonly string[],
  single: boolean,
): { status: 200 | 503; body: HealthBody } {
  switch (state.kind) {
    case 'bound':
      if (single && (state.identity.damagedShards ?? []).length > 0)
        return damagedHealth(state.identity.damagedShards ?? [], expected, state.identity.indexVersion);
      if (missing.length > 0) {
        return {
          status: 503,
          body: {
            status: 'unavailable',
            reason: `no healthy worker serves shard${missing.length === 1 ? '' : 's'} ${missing.join(', ')} of release ${expected}; start or repair a worker with --shards covering them`,
            gateway_index_version: expected,
            worker_index_version: state.identity.indexVersion,
            missing_shards: missing,
          },
        };
      }
      return {
        status: 200,
        body: {
          status: 'ok',
          index_version: state.identity.indexVersion,
          shards: state.identity.indexes.flatMap((i) =>
            i.shards.map((s) => ({ index: i.name, shard_id: s.shardId, year: s.year, documents: s.docCount })),
          ),
        },
      };
    case 'mismatch':
      return {
        status: 503,
        body: {
          status: 'unavailable',
          reason: `the worker serves release ${state.workerIndexVersion}, the gateway is configured for ${expected}; start the worker with --index-version ${expected} on that release or set GATEWAY_INDEX_VERSION`,
          gateway_index_version: expected,
          worker_index_version: state.workerIndexVersion,
        },
      };
    case 'unreachable':
      return {
        status: 503,
        body: {
          status: 'unavailable',
          reason: state.reason,
          gateway_index_version: expected,
          worker_index_version: null,
        },
      };
    default:
      return assertNever(state, 'binding state');
  }
}

/** The worker found shards damaged after start-up (`--verify sizes`' background check): 503, naming them and why. */
function damagedHealth(
  damaged: readonly DamagedShard[],
  expected: string,
  workerIndexVersion: string,
): { status: 503; body: HealthBody } {
  const ids = damaged.map((d) => d.shardId);
  return {
    status: 503,
    body: {
      status: 'unavailable',
      reason:
        `shard${ids.length === 1 ? '' : 's'} ${ids.join(', ')} of release ${expected} ${ids.length === 1 ? 'is' : 'are'} damaged on the worker and out of service ` +
        `(${damaged[0]?.reason ?? ''}); restore the release from its source (or rebuild it) and restart the worker`,
      gateway_index_version: expected,
      worker_index_version: workerIndexVersion,
      missing_shards: ids,
      damaged_shards: damaged,
    },
  };
}
