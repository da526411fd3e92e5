import { sql, type Kysely, type Selectable } from 'kysely';
import { isPostgres, lockWaitingTransaction, type Database } from '../db/index.ts';
import type { WebhookOutboxTable } from '../db/schema.ts';
import { eventTypesOf, storedEventTypes } from './event-types.ts';

export interface Subscription {
  readonly id: number;
  readonly url: string;
  readonly secret: string;
  readonly eventTypes: string[];
  readonly paused: boolean;
  readonly failingSinceMs: number | null;
  readonly createdMs: number;
}

export type OutboxRow = Selectable<WebhookOutboxTable>;
/** A claimed message with what sending it needs. */
export type Claimed = OutboxRow & { url: string; secret: string; failing_since: number | string | null };

/** The event type of the test route's messages (not a change; `entity_kind` 'subscription'). */
export const TEST_EVENT_TYPE = 'webhook.test';

/** The statuses of messages whose delivery is over; only these are ever pruned. */
const SETTLED = ['delivered', 'failed'];

const num = (v: number | string | null): number | null => (v === null ? null : Number(v));

function toSubscription(r: Selectable<Database['webhook_subscriptions']>): Subscription {
  return {
    id: r.id,
    url: r.url,
    secret: r.secret,
    eventTypes: eventTypesOf(r.event_types),
    paused: r.paused === 1,
    failingSinceMs: num(r.failing_since_ms),
    createdMs: Number(r.created_ms),
  };
}

/** A settled attempt: delivered, or failed with a retry time (null: failed for good). */
export type Outcome = { m: Claimed; ok: true } | { m: Claimed; ok: false; error: string; retryAt: number | null };

/** Subscriptions and the outbox; the triggers of migration 017 insert the messages, this reads and settles them. */
export function webhookRepository(db: Kysely<Database>) {
  // One transaction per batch step (claim, payloads, settle) rather than one per message: on SQLite every write
  // waits for the one writer, which the service's own writes need.
  const inTransaction = <T>(fn: (trx: Kysely<Database>) => Promise<T>): Promise<T> => lockWaitingTransaction(db, fn);
  return {
    async add(url: string, secret: string, types: readonly string[], now: number): Promise<Subscription> {
      const r = await db
        .insertInto('webhook_subscriptions')
        .values({ url, secret, event_types: storedEventTypes(types), created_ms: now, failing_since_ms: null })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toSubscription(r);
    },
    async list(): Promise<Subscription[]> {
      return (await db.selectFrom('webhook_subscriptions').selectAll().orderBy('id').execute()).map(toSubscription);
    },
    async find(id: number): Promise<Subscription | undefined> {
      const r = await db.selectFrom('webhook_subscriptions').selectAll().where('id', '=', id).executeTakeFirst();
      return r && toSubscription(r);
    },
    /** Pauses or resumes; resuming forgets the failures, so the next day of failures pauses it again. */
    async setPaused(id: number, paused: boolean): Promise<boolean> {
      const r = await db
        .updateTable('webhook_subscriptions')
        .set({ paused: paused ? 1 : 0, ...(paused ? {} : { failing_since_ms: null }) })
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },
    async remove(id: number): Promise<boolean> {
      const r = await db.deleteFrom('webhook_subscriptions').where('id', '=', id).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },
    /** The newest messages of a subscription first. */
    deliveries: (subscriptionId: number, limit: number) =>
      db
        .selectFrom('webhook_outbox')
        .selectAll()
        .where('subscription_id', '=', subscriptionId)
        .orderBy('id', 'desc')
        .limit(limit)
        .execute(),
    /** Sends a delivered or failed message again, with its `webhook-id` and body; false when there is none. */
    async redeliver(id: number): Promise<boolean> {
      const r = await db
        .updateTable('webhook_outbox')
        .set({ status: 'pending', next_attempt_ms: 0, first_attempt_ms: null, last_error: '' })
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },

    /**
     * Logs a `webhook.test` message about to be sent by the test route: claimed by the caller for `leaseMs` (the
     * runner sends it again after that only if the route never settled it: a crash) with its body fixed.
     */
    async addTest(subscriptionId: number, msgId: string, payload: string, now: number, leaseMs: number) {
      const row = await inTransaction((trx) =>
        trx
          .insertInto('webhook_outbox')
          .values({
            msg_id: msgId,
            subscription_id: subscriptionId,
            entity_kind: 'subscription',
            entity_id: subscriptionId,
            event_type: TEST_EVENT_TYPE,
            payload,
            first_attempt_ms: now,
            next_attempt_ms: now + leaseMs,
            created_ms: now,
            delivered_ms: null,
          })
          .returning('id')
          .executeTakeFirstOrThrow(),
      );
      return Number(row.id);
    },
    /**
     * Settles a test message: delivered, or failed at once (a test is not retried; redelivering it sends it again).
     * Unlike a change's message it leaves the subscription's failing state alone, so a test cannot pause it.
     */
    async settleTest(id: number, outcome: { delivered: boolean; error: string }, now: number): Promise<void> {
      await inTransaction((trx) =>
        trx
          .updateTable('webhook_outbox')
          .set({
            attempts: sql`attempts + 1`,
            last_error: outcome.error.slice(0, 500),
            ...(outcome.delivered ? { status: 'delivered', delivered_ms: now } : { status: 'failed' }),
          })
          .where('id', '=', id)
          .where('status', '=', 'pending')
          .execute(),
      );
    },

    /**
     * Takes up to `limit` due messages for `leaseMs`: each is the oldest pending one of its entity for its
     * subscription (order per entity), of an active subscription. On PostgreSQL `FOR UPDATE SKIP LOCKED` lets several
     * instances claim side by side without taking the same row; on SQLite the claim is one write transaction, and
     * SQLite runs one writer at a time, so two processes cannot claim the same row either. The lease (a later
     * `next_attempt_ms`) keeps a claimed row from others until it is settled, or until its instance died.
     */
    async claim(now: number, limit: number, leaseMs: number): Promise<Claimed[]> {
      // A read first: an idle poll (the usual case, and always without subscriptions) takes no write lock.
      const due = await db
        .selectFrom('webhook_outbox')
        .select('id')
        .where('status', '=', 'pending')
        .where('next_attempt_ms', '<=', now)
        .limit(1)
        .executeTakeFirst();
      if (due === undefined) return [];
      return inTransaction(async (trx) => {
        let q = trx
          .selectFrom('webhook_outbox as o')
          .innerJoin('webhook_subscriptions as s', 's.id', 'o.subscription_id')
          .selectAll('o')
          .select(['s.url', 's.secret', 's.failing_since_ms as failing_since'])
          .where('o.status', '=', 'pending')
          .where('o.next_attempt_ms', '<=', now)
          .where('s.paused', '=', 0)
          .where(({ not, exists, selectFrom }) =>
            not(
              exists(
                selectFrom('webhook_outbox as e')
                  .select(sql`1`.as('one'))
                  .whereRef('e.subscription_id', '=', 'o.subscription_id')
                  .whereRef('e.entity_kind', '=', 'o.entity_kind')
                  .whereRef('e.entity_id', '=', 'o.entity_id')
                  .where('e.status', '=', 'pending')
                  .whereRef('e.id', '<', 'o.id'),
              ),
            ),
          )
          .orderBy('o.id')
          .limit(limit);
        if (isPostgres(db)) q = q.forUpdate('o').skipLocked();
        const rows = await q.execute();
        if (rows.length > 0)
          await trx
            .updateTable('webhook_outbox')
            .set({ next_attempt_ms: now + leaseMs })
            .where(
              'id',
              'in',
              rows.map((r) => r.id),
            )
            .execute();
        return rows;
      });
    },
    /** Fixes the bodies of first attempts (before they are sent, so a repeat after a crash sends the same bytes). */
    async setPayloads(items: ReadonlyArray<{ id: number | string; payload: string }>, now: number): Promise<void> {
      if (items.length === 0) return;
      // One statement for the batch (a round trip each on PostgreSQL was most of the step's cost).
      const payload = sql<string>`case id ${sql.join(
        items.map(({ id, payload }) => sql`when ${Number(id)} then ${payload}`),
        sql` `,
      )} end`;
      await inTransaction((trx) =>
        trx
          .updateTable('webhook_outbox')
          .set({ payload, first_attempt_ms: now })
          .where(
            'id',
            'in',
            items.map(({ id }) => Number(id)),
          )
          .execute(),
      );
    },
    /** Records a batch's attempts: delivered ones at once, failed ones with their retry time or as failed. */
    async settle(outcomes: readonly Outcome[], now: number): Promise<void> {
      const ok = outcomes.filter((o) => o.ok).map((o) => o.m);
      const failed = outcomes.filter((o): o is Extract<Outcome, { ok: false }> => !o.ok);
      await inTransaction(async (trx) => {
        if (ok.length > 0)
          await trx
            .updateTable('webhook_outbox')
            .set({ status: 'delivered', delivered_ms: now, attempts: sql`attempts + 1`, last_error: '' })
            .where(
              'id',
              'in',
              ok.map((m) => m.id),
            )
            .execute();
        const recovered = [...new Set(ok.filter((m) => m.failing_since !== null).map((m) => m.subscription_id))];
        if (recovered.length > 0)
          await trx
            .updateTable('webhook_subscriptions')
            .set({ failing_since_ms: null })
            .where('id', 'in', recovered)
            .execute();
        for (const f of failed)
          await trx
            .updateTable('webhook_outbox')
            .set({
              attempts: sql`attempts + 1`,
              // A redelivered message has none: its 24 hours of retries count from this attempt.
              first_attempt_ms: sql`coalesce(first_attempt_ms, ${now})`,
              last_error: f.error.slice(0, 500),
              ...(f.retryAt === null ? { status: 'failed' } : { next_attempt_ms: f.retryAt }),
            })
            .where('id', '=', f.m.id)
            .execute();
        const failing = [...new Set(failed.map((f) => f.m.subscription_id))];
        if (failing.length > 0)
          await trx
            .updateTable('webhook_subscriptions')
            .set({ failing_since_ms: now })
            .where('id', 'in', failing)
            .where('failing_since_ms', 'is', null)
            .execute();
      });
    },
    /**
     * Deletes up to `limit` settled (delivered or failed) messages whose last attempt ended before `before`; how many.
     * A settled row's `next_attempt_ms` is the end of the lease of its last claim, after its last attempt, so the
     * existing `(status, next_attempt_ms)` index finds them. Pending rows (new, retrying or in flight) are never
     * taken: the outer condition is checked again on the row deleted, so a row redelivered meanwhile (pending again)
     * stays, on PostgreSQL too (read committed re-evaluates a concurrently updated row).
     */
    async prune(before: number, limit: number): Promise<number> {
      const settledIds = (h: Kysely<Database>) =>
        h
          .selectFrom('webhook_outbox')
          .select('id')
          .where('status', 'in', SETTLED)
          .where('next_attempt_ms', '<', before)
          .limit(limit);
      // A read first, as in `claim`: most rounds have nothing to prune and take no write lock.
      if ((await settledIds(db).executeTakeFirst()) === undefined) return 0;
      return inTransaction(async (trx) => {
        const r = await trx
          .deleteFrom('webhook_outbox')
          .where('id', 'in', settledIds(trx))
          .where('status', 'in', SETTLED)
          .where('next_attempt_ms', '<', before)
          .executeTakeFirst();
        return Number(r.numDeletedRows);
      });
    },
    /** Pauses the subscriptions failing since before `since`; their names for the log. */
    async pauseFailingSince(since: number): Promise<number[]> {
      // Every poll asks this, so a read first, as in `claim`: on SQLite a plain write statement waits for another
      // process's write lock synchronously (the busy timeout), which held this process's event loop for seconds
      // while a CSV import or another writer had the lock. Only when a subscription is due is it paused, in a
      // transaction that waits for the lock without blocking (`lockWaitingTransaction`).
      const failing = await db
        .selectFrom('webhook_subscriptions')
        .select('id')
        .where('paused', '=', 0)
        .where('failing_since_ms', '<=', since)
        .executeTakeFirst();
      if (failing === undefined) return [];
      return inTransaction(async (trx) => {
        const rows = await trx
          .updateTable('webhook_subscriptions')
          .set({ paused: 1 })
          .where('paused', '=', 0)
          .where('failing_since_ms', '<=', since)
          .returning('id')
          .execute();
        return rows.map((r) => r.id);
      });
    },
  };
}

export type WebhookRepository = ReturnType<typeof webhookRepository>;
