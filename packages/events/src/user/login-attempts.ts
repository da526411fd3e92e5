import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/index.ts';
import type { AttemptCounter, AttemptWindow } from '../http/auth.ts';

const MINUTE_MS = 60_000;

/** The buckets one attempt counts in: its address and its login (hashed; logins are matched case-insensitively). */
export function attemptBuckets(ip: string, login: string): string[] {
  return [`ip:${ip}`, `user:${createHash('sha256').update(login.trim().toLowerCase()).digest('base64url')}`];
}

/**
 * Login attempts counted in the store per calendar minute (migration 006). Counting is one upsert statement per
 * attempt, atomic on both stores (SQLite writes one statement at a time; PostgreSQL locks the conflicting rows), so
 * parallel attempts each see the count including the others, and every instance on one database shares it.
 */
export function storeAttemptCounter(db: Kysely<Database>): AttemptCounter {
  let prunedBefore = 0;
  const windowOf = (now: number): AttemptWindow => {
    const minute = Math.floor(now / MINUTE_MS);
    return { minute, endsAt: (minute + 1) * MINUTE_MS };
  };
  /** Rows of past minutes are dead weight; each instance deletes them once per minute. */
  const prune = async (minute: number) => {
    if (minute <= prunedBefore) return;
    prunedBefore = minute;
    await db.deleteFrom('login_attempts').where('minute', '<', minute).execute();
  };
  const countsOf = (rows: { bucket: string; attempts: number }[], buckets: readonly string[]) =>
    buckets.map((b) => Number(rows.find((r) => r.bucket === b)?.attempts ?? 0));

  return {
    async count(buckets, now) {
      const w = windowOf(now);
      await prune(w.minute);
      const rows = await db.insertInto('login_attempts')
        .values(buckets.map((bucket) => ({ bucket, minute: w.minute, attempts: 1 })))
        .onConflict((oc) => oc.column('bucket').doUpdateSet({
          // A row left from an earlier minute starts again at 1.
          attempts: sql<number>`case when login_attempts.minute = excluded.minute then login_attempts.attempts + 1 else 1 end`,
          minute: sql<number>`excluded.minute`,
        }))
        .returning(['bucket', 'attempts'])
        .execute();
      return { counts: countsOf(rows, buckets), window: w };
    },
    async peek(buckets, now) {
      const w = windowOf(now);
      const rows = await db.selectFrom('login_attempts').select(['bucket', 'attempts'])
        .where('bucket', 'in', [...buckets]).where('minute', '=', w.minute).execute();
      return { counts: countsOf(rows, buckets), window: w };
    },
    async uncount(buckets, w) {
      await db.updateTable('login_attempts').set({ attempts: sql<number>`attempts - 1` })
        .where('bucket', 'in', [...buckets]).where('minute', '=', w.minute).where('attempts', '>', 0).execute();
    },
  };
}
