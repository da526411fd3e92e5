import type { WorkerIdentity } from '../../protocol/index.ts';
import { GatewayError } from '../errors/index.ts';
import type { WorkerClient } from './worker-client.ts';

/** Whether the worker serves the release the gateway is configured for (binding rule 4). */
export type BindingState =
  | { readonly kind: 'bound'; readonly identity: WorkerIdentity }
  | { readonly kind: 'mismatch'; readonly workerIndexVersion: string; readonly identity: WorkerIdentity }
  | { readonly kind: 'unreachable'; readonly reason: string };

export interface ReleaseBinding {
  readonly expected: string;
  /** Asks the worker now; `deadline` as in `WorkerClient.call`. */
  check(deadline?: number): Promise<BindingState>;
  /**
   * A state no older than `maxAgeMs` (asks the worker when the cached one is older, or was not `bound`).
   * A caller joining a question already under way waits for it (its deadline is no later than the caller's own).
   */
  current(maxAgeMs: number, deadline?: number): Promise<BindingState>;
}

export function createReleaseBinding(
  client: WorkerClient,
  expected: string,
  now: () => number = Date.now,
): ReleaseBinding {
  let cached: { state: BindingState; at: number } | null = null;
  let inflight: Promise<BindingState> | null = null;

  const check = async (deadline?: number): Promise<BindingState> => {
    let state: BindingState;
    try {
      const reply = await client.call({ kind: 'identity' }, deadline);
      if (reply.kind !== 'identity')
        state = { kind: 'unreachable', reason: `worker refused identity: ${reply.error.code}` };
      else if (reply.identity.indexVersion === expected) state = { kind: 'bound', identity: reply.identity };
      else state = { kind: 'mismatch', workerIndexVersion: reply.identity.indexVersion, identity: reply.identity };
    } catch (e) {
      state = { kind: 'unreachable', reason: e instanceof GatewayError ? e.detail : 'worker call failed' };
    }
    cached = { state, at: now() };
    return state;
  };

  return {
    expected,
    check,
    current(maxAgeMs, deadline) {
      const c = cached;
      // A worker that restarts on another release shows up in the index_version of its very next reply.
      const drifted =
        c !== null &&
        c.state.kind === 'bound' &&
        client.lastSeenIndexVersion !== null &&
        client.lastSeenIndexVersion !== expected;
      if (c !== null && c.state.kind === 'bound' && !drifted && now() - c.at <= maxAgeMs)
        return Promise.resolve(c.state);
      // Concurrent requests share one identity call instead of each asking the worker.
      inflight ??= check(deadline).finally(() => {
        inflight = null;
      });
      return inflight;
    },
  };
}
