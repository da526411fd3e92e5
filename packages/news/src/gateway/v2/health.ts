import type { BindingState } from '../worker-client/index.ts';
import { assertNever } from '../../protocol/index.ts';

export type HealthBody =
  | { readonly status: 'ok'; readonly index_version: string; readonly shards: readonly { index: string; shard_id: string; year: string; documents: number }[] }
  | { readonly status: 'unavailable'; readonly reason: string; readonly gateway_index_version: string; readonly worker_index_version: string | null };

/** GET /api/v2/health: 200 only when the worker serves the configured release (binding rule 4), else 503. */
export function healthFromBinding(state: BindingState, expected: string): { status: 200 | 503; body: HealthBody } {
  switch (state.kind) {
    case 'bound':
      return {
        status: 200,
        body: {
          status: 'ok', index_version: state.identity.indexVersion,
          shards: state.identity.indexes.flatMap((i) => i.shards.map((s) => ({ index: i.name, shard_id: s.shardId, year: s.year, documents: s.docCount }))),
        },
      };
    case 'mismatch':
      return {
        status: 503,
        body: {
          status: 'unavailable',
          reason: `the worker serves release ${state.workerIndexVersion}, the gateway is configured for ${expected}; start the worker with --index-version ${expected} on that release or set GATEWAY_INDEX_VERSION`,
          gateway_index_version: expected, worker_index_version: state.workerIndexVersion,
        },
      };
    case 'unreachable':
      return {
        status: 503,
        body: { status: 'unavailable', reason: state.reason, gateway_index_version: expected, worker_index_version: null },
      };
    default:
      return assertNever(state, 'binding state');
  }
}
