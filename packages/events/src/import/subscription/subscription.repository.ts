import type { Kysely, Selectable } from 'kysely';
import type { Database, IcalSubscriptionsTable } from '../../db/index.ts';

/** A feed the service imports on a schedule (times in ms since the epoch). */
export interface Subscription {
  readonly url: string;
  readonly everySeconds: number;
  readonly trashVanished: boolean;
  readonly authorId: number | null;
  readonly nextRunMs: number;
  readonly lastRunMs: number | null;
  readonly lastStatus: '' | 'ok' | 'error';
  readonly lastMessage: string;
}

const toSubscription = (r: Selectable<IcalSubscriptionsTable>): Subscription => ({
  url: r.url,
  everySeconds: r.every_seconds,
  trashVanished: r.trash_vanished === 1,
  authorId: r.author_id,
  nextRunMs: Number(r.next_run_ms),
  lastRunMs: r.last_run_ms === null ? null : Number(r.last_run_ms),
  lastStatus: r.last_status as Subscription['lastStatus'],
  lastMessage: r.last_message,
});

/** `ical_subscriptions` (migration 016), on both stores. */
export function subscriptionRepository(db: Kysely<Database>) {
  return {
    /** Adds a feed (due at once) or changes the schedule of one subscribed already; true when it was new. */
    async add(s: { url: string; everySeconds: number; trashVanished: boolean; authorId: number | null }, now: number) {
      const existing = await db
        .selectFrom('ical_subscriptions')
        .select('url')
        .where('url', '=', s.url)
        .executeTakeFirst();
      if (existing !== undefined) {
        await db
          .updateTable('ical_subscriptions')
          .set({
            every_seconds: s.everySeconds,
            trash_vanished: s.trashVanished ? 1 : 0,
            author_id: s.authorId,
            next_run_ms: now,
          })
          .where('url', '=', s.url)
          .execute();
        return false;
      }
      await db
        .insertInto('ical_subscriptions')
        .values({
          url: s.url,
          every_seconds: s.everySeconds,
          trash_vanished: s.trashVanished ? 1 : 0,
          author_id: s.authorId,
          next_run_ms: now,
          last_run_ms: null,
          created_ms: now,
        })
        .execute();
      return true;
    },
    async list(): Promise<Subscription[]> {
      return (await db.selectFrom('ical_subscriptions').selectAll().orderBy('url').execute()).map(toSubscription);
    },
    async remove(url: string): Promise<boolean> {
      const r = await db.deleteFrom('ical_subscriptions').where('url', '=', url).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },
    async due(now: number): Promise<Subscription[]> {
      const rows = await db
        .selectFrom('ical_subscriptions')
        .selectAll()
        .where('next_run_ms', '<=', now)
        .orderBy('next_run_ms')
        .execute();
      return rows.map(toSubscription);
    },
    /**
     * Takes a due run: moves its next run on, only if no other instance did since `seen` was read (a compare and
     * set), so among several instances on one database exactly one runs it.
     */
    async claim(s: Subscription, nextRunMs: number): Promise<boolean> {
      const r = await db
        .updateTable('ical_subscriptions')
        .set({ next_run_ms: nextRunMs })
        .where('url', '=', s.url)
        .where('next_run_ms', '=', s.nextRunMs)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    async record(url: string, runMs: number, status: 'ok' | 'error', message: string): Promise<void> {
      await db
        .updateTable('ical_subscriptions')
        .set({ last_run_ms: runMs, last_status: status, last_message: message.slice(0, 2000) })
        .where('url', '=', url)
        .execute();
    },
  };
}
