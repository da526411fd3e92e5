import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../db/index.ts';
import type { Services } from '../services.ts';
import type { Clock } from '../time/index.ts';
import type { EntityKind } from './event-types.ts';
import { renderEntity } from './render.ts';
import { sendMessage, type SendOptions } from './send.ts';
import { webhookRepository, type Claimed } from './webhook.repository.ts';

const HOUR_MS = 3_600_000;
/** Retries stop, and a failing subscription is paused, after a day. */
export const RETRY_WINDOW_MS = 24 * HOUR_MS;

export interface DeliveryOptions extends SendOptions {
  readonly pollMs: number;
  readonly retryBaseMs: number;
  /** Messages claimed per round and sent side by side (different entities; one entity's stay in order). */
  readonly batch: number;
}

export const defaultDeliveryOptions: DeliveryOptions = {
  pollMs: 100,
  retryBaseMs: 5_000,
  batch: 64,
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
 * @example const runner = startDeliveryRunner(deps, defaultDeliveryOptions); …; await runner.stop()
 */
export function startDeliveryRunner(deps: DeliveryDeps, opts: DeliveryOptions) {
  const repo = webhookRepository(deps.db);
  const leaseMs = opts.timeoutMs * 3;
  let current: Promise<number> = Promise.resolve(0);
  let busy = false;
  let stopped = false;

  const deliverOne = async (m: Claimed): Promise<void> => {
    const now = deps.clock();
    let body = m.payload;
    if (body === null) {
      const data = await renderEntity(
        deps.services,
        m.entity_kind as EntityKind,
        m.entity_id,
        m.event_type.endsWith('.deleted'),
      );
      body = JSON.stringify({ type: m.event_type, timestamp: new Date(now).toISOString(), data });
      await repo.setPayload(m.id, body, now);
    }
    const first = m.first_attempt_ms === null ? now : Number(m.first_attempt_ms);
    let error: string;
    try {
      const status = await sendMessage(
        m.url,
        { id: m.msg_id, secret: m.secret, body, timestampS: Math.floor(now / 1000) },
        opts,
      );
      if (status >= 200 && status < 300) return repo.delivered(m, deps.clock());
      error = `the receiver answered ${status}`;
    } catch (err) {
      error = err instanceof Error ? err.message : String(err);
    }
    const at = deps.clock();
    const retryAt = at + retryDelayMs(m.attempts + 1, opts.retryBaseMs);
    await repo.attemptFailed(m, error, retryAt - first > RETRY_WINDOW_MS ? null : retryAt, at);
  };

  const round = async (): Promise<number> => {
    let sent = 0;
    for (;;) {
      if (stopped) return sent;
      const claimed = await repo.claim(deps.clock(), opts.batch, leaseMs);
      if (claimed.length === 0) break;
      await Promise.all(
        claimed.map((m) =>
          deliverOne(m).catch((err: unknown) =>
            deps.logger.warn({ err: String(err), msgId: m.msg_id }, 'webhook message could not be settled'),
          ),
        ),
      );
      sent += claimed.length;
    }
    const paused = await repo.pauseFailingSince(deps.clock() - RETRY_WINDOW_MS);
    if (paused.length > 0)
      deps.logger.warn({ subscriptions: paused }, 'webhook subscriptions paused after a day of failures');
    return sent;
  };
  const tick = () => {
    if (busy || stopped) return;
    busy = true;
    current = round()
      .catch((err: unknown) => {
        deps.logger.warn({ err: String(err) }, 'webhook outbox could not be read');
        return 0;
      })
      .finally(() => {
        busy = false;
      });
  };
  const timer = setInterval(tick, opts.pollMs);
  timer.unref();
  return {
    /** Delivers what is due now and waits for it (tests; the timer does the same every `pollMs`). */
    async runDue(): Promise<number> {
      await current;
      tick();
      return current;
    },
    async stop(): Promise<void> {
      stopped = true;
      clearInterval(timer);
      await current;
    },
  };
}
