import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../db/index.ts';
import type { Services } from '../services.ts';
import { singleFlight, type Clock } from '../time/index.ts';
import type { EntityKind } from './event-types.ts';
import { renderEntities } from './render.ts';
import { sendLeaseMs, sendMessage, type SendOptions } from './send.ts';
import { webhookRepository, type Claimed, type Outcome } from './webhook.repository.ts';

const HOUR_MS = 3_600_000;
/** Retries stop, and a failing subscription is paused, after a day. */
export const RETRY_WINDOW_MS = 24 * HOUR_MS;
/** How often (by the service clock) the delivery log is pruned. */
const PRUNE_EVERY_MS = 60_000;

export interface DeliveryOptions extends SendOptions {
  readonly pollMs: number;
  readonly retryBaseMs: number;
  /** Messages claimed per round and sent side by side (different entities; one entity's stay in order). */
  readonly batch: number;
  /** How long a delivered or failed message stays in the delivery log after its last attempt; 0: forever. */
  readonly logKeepMs: number;
  /** Settled messages deleted per transaction when pruning the log (each one holds SQLite's write lock briefly). */
  readonly pruneBatch: number;
}

export const defaultDeliveryOptions: DeliveryOptions = {
  pollMs: 100,
  retryBaseMs: 5_000,
  batch: 64,
  logKeepMs: 14 * 24 * HOUR_MS,
  pruneBatch: 500,
  allowPrivateHosts: false,
  timeoutMs: 10_000,
};

/** Exponential backoff with full jitter in its upper half: base·2^(n−1), capped at an hour, times 0.5–1. */
export const retryDelayMs = (attempt: number, baseMs: number): number =>
  Math.round(Math.min(baseMs * 2 ** Math.min(attempt - 1, 30), HOUR_MS) * (0.5 + Math.random() / 2));

export interface DeliveryDeps {
  readonly db: Kysely<Database>;
  readonly services: Services;
  readonly clock: Clock;
  readonly logger: Logger;
}

/**
 * Delivers the outbox, every `pollMs`, in every instance: claims due messages (webhook.repository `claim`), fixes
 * each one's body at its first attempt, POSTs it signed, and settles it: 2xx delivered; otherwise retried with
 * backoff until 24 hours after the first attempt, then failed. Subscriptions failing for 24 hours are paused.
 * Settled messages leave the delivery log `logKeepMs` after their last attempt.
 * @example const runner = startDeliveryRunner(deps, defaultDeliveryOptions); …; await runner.stop()
 */
export function startDeliveryRunner(deps: DeliveryDeps, opts: DeliveryOptions) {
  const repo = webhookRepository(deps.db);
  const leaseMs = sendLeaseMs(opts);
  let stopped = false;

  /** One claimed batch: bodies fixed for first attempts, all sent side by side, then settled together. */
  const deliverBatch = async (claimed: readonly Claimed[]): Promise<void> => {
    const now = deps.clock();
    const fresh = claimed.filter((m) => m.payload === null);
    const bodies = new Map<Claimed, string>();
    const data = await renderEntities(
      deps.services,
      fresh.map((m) => ({
        kind: m.entity_kind as EntityKind,
        id: m.entity_id,
        deleted: m.event_type.endsWith('.deleted'),
      })),
    );
    // Byte for byte what JSON.stringify({ type, timestamp, data }) gives, without parsing `data` back.
    const timestamp = JSON.stringify(new Date(now).toISOString());
    const rendered = fresh.map((m, i) => {
      const payload = `{"type":${JSON.stringify(m.event_type)},"timestamp":${timestamp},"data":${data[i]}}`;
      bodies.set(m, payload);
      return { id: m.id, payload };
    });
    await repo.setPayloads(rendered, now);
    const outcomes = await Promise.all(
      claimed.map(async (m): Promise<Outcome> => {
        const body = m.payload ?? bodies.get(m)!;
        const at = deps.clock();
        let error: string;
        try {
          const status = await sendMessage(
            m.url,
            { id: m.msg_id, secret: m.secret, body, timestampS: Math.floor(at / 1000) },
            opts,
          );
          if (status >= 200 && status < 300) return { m, ok: true };
          error = `the receiver answered ${status}`;
        } catch (err) {
          error = err instanceof Error ? err.message : String(err);
        }
        const first = m.first_attempt_ms === null ? now : Number(m.first_attempt_ms);
        const retryAt = deps.clock() + retryDelayMs(m.attempts + 1, opts.retryBaseMs);
        return { m, ok: false, error, retryAt: retryAt - first > RETRY_WINDOW_MS ? null : retryAt };
      }),
    );
    await repo.settle(outcomes, deps.clock());
  };

  /** Set by `runDue`: its round goes on until nothing is due, not only while batches come full. */
  let drainAll = false;
  const round = async (): Promise<number> => {
    let sent = 0;
    for (;;) {
      if (stopped) return sent;
      const claimed = await repo.claim(deps.clock(), opts.batch, leaseMs);
      if (claimed.length === 0) break;
      // A batch that cannot be settled stays claimed: its messages are sent again when the lease ends.
      await deliverBatch(claimed).catch((err: unknown) =>
        deps.logger.warn({ err: String(err), messages: claimed.length }, 'webhook messages could not be settled'),
      );
      sent += claimed.length;
      // A part batch leaves no backlog: what arrives meanwhile waits for the next poll. Claiming again at once
      // delivered a steady stream of writes one or two messages at a time, each batch paying its three transactions
      // and its queries (bench: ~7 messages a batch, and twice the CPU per message of full batches).
      if (claimed.length < opts.batch && !drainAll) break;
      // Between batches of a backlog the service's own writes go first.
      await new Promise((r) => setImmediate(r));
    }
    const paused = await repo.pauseFailingSince(deps.clock() - RETRY_WINDOW_MS);
    if (paused.length > 0)
      deps.logger.warn({ subscriptions: paused }, 'webhook subscriptions paused after a day of failures');
    return sent;
  };
  const delivery = singleFlight(
    round,
    (err: unknown) => {
      deps.logger.warn({ err: String(err) }, 'webhook outbox could not be read');
      return 0;
    },
    0,
  );
  /** Deletes the settled messages past the log's keep time, a batch per short transaction, until none is left. */
  let lastPrune = -Infinity;
  const prune = async (): Promise<void> => {
    const now = deps.clock();
    if (opts.logKeepMs === 0 || Math.abs(now - lastPrune) < PRUNE_EVERY_MS) return;
    lastPrune = now;
    let total = 0;
    for (;;) {
      const n = await repo.prune(now - opts.logKeepMs, opts.pruneBatch);
      total += n;
      if (n < opts.pruneBatch || stopped) break;
      // Between batches the service's own writes take the lock.
      await new Promise((r) => setImmediate(r));
    }
    if (total > 0) deps.logger.info({ messages: total }, 'webhook delivery log pruned');
  };
  const pruning = singleFlight(
    prune,
    (err: unknown) => deps.logger.warn({ err: String(err) }, 'webhook delivery log could not be pruned'),
    undefined,
  );
  // Pruning runs beside deliveries, not after them: a slow receiver holding a round must not stop it.
  const timer = setInterval(() => {
    if (stopped) return;
    delivery.trigger();
    pruning.trigger();
  }, opts.pollMs);
  timer.unref();
  return {
    /** Delivers what is due now and waits for it (tests; the timer does the same every `pollMs`). */
    async runDue(): Promise<number> {
      await delivery.current;
      if (stopped) return delivery.current;
      drainAll = true;
      delivery.trigger();
      try {
        return await delivery.current;
      } finally {
        drainAll = false;
      }
    },
    async stop(): Promise<void> {
      stopped = true;
      clearInterval(timer);
      await Promise.all([delivery.current, pruning.current]);
    },
  };
}
