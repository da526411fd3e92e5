import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { ChangeSignal, Database, NOTIFIED_ATTEMPTS } from '../db/index.ts';
import { LOGIN_ATTEMPT_LIMIT, type AttemptCounter, type AttemptWindow } from '../http/auth.ts';

// Migration 008 notifies when a bucket reaches this limit; the fast path below depends on it (a compile error if the
// two differ: a new limit needs a new migration).
const _notifiedAtTheLimit: typeof NOTIFIED_ATTEMPTS = LOGIN_ATTEMPT_LIMIT;
/** Buckets remembered as below the limit; past this many the memory starts again (one read per bucket pair). */
const MAX_REMEMBERED = 10_000;

const MINUTE_MS = 60_000;

/** The buckets one attempt counts in: its address and its login (hashed; logins are matched case-insensitively). */
export function attemptBuckets(ip: string, login: string): string[] {
  return [`ip:${ip}`, `user:${createHash('sha256').update(login.trim().toLowerCase()).digest('base64url')}`];
}

/**
 * Login attempts counted in the store per calendar minute (migration 006). Counting is one upsert statement per
 * attempt, atomic on both stores (SQLite writes one statement at a time; PostgreSQL locks the conflicting rows), so
 * parallel attempts each see the count including the others, and every instance on one database shares it.
 *
 * `blocked` (asked for every request with a known credential) reads the store only when it must: a bucket read
 * below the limit stays below it until this instance counts an attempt or the `logins` change signal moves,
 * which it does whenever any bucket reaches the limit, on any instance (PostgreSQL: migration 008's trigger; SQLite:
 * any commit from another connection).
 */
export function storeAttemptCounter(db: Kysely<Database>, changes?: Pick<ChangeSignal, 'read'>): AttemptCounter {
  let prunedBefore = 0;
  // Bucket → the stamp it was read below the limit at: the logins signal and this instance's count of counting calls
  // (SQLite's signal does not move with this connection's own commits).
  const below = new Map<string, string>();
  let counted = 0;
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
      counted++;
      const w = windowOf(now);
      await prune(w.minute);
      const rows = await db
        .insertInto('login_attempts')
        .values(buckets.map((bucket) => ({ bucket, minute: w.minute, attempts: 1 })))
        .onConflict((oc) =>
          oc.column('bucket').doUpdateSet({
            // A row left from an earlier minute starts again at 1.
            attempts: sql<number>`case when login_attempts.minute = excluded.minute then login_attempts.attempts + 1 else 1 end`,
            minute: sql<number>`excluded.minute`,
          }),
        )
        .returning(['bucket', 'attempts'])
        .execute();
      return { counts: countsOf(rows, buckets), window: w };
    },
    async blocked(buckets, now) {
      const w = windowOf(now);
      if (changes === undefined) return (await readBlocked(buckets, w)) ? w : undefined;
      const signal = `${changes.read('logins')}/${counted}`;
      if (buckets.every((b) => below.get(b) === signal)) return undefined;
      if (await readBlocked(buckets, w)) return w;
      if (below.size >= MAX_REMEMBERED) below.clear();
      for (const b of buckets) below.set(b, signal);
      return undefined;
    },
    async uncount(buckets, w) {
      await db
        .updateTable('login_attempts')
        .set({ attempts: sql<number>`attempts - 1` })
        .where('bucket', 'in', [...buckets])
        .where('minute', '=', w.minute)
        .where('attempts', '>', 0)
        .execute();
    },
  };

  async function readBlocked(buckets: readonly string[], w: AttemptWindow): Promise<boolean> {
    const rows = await db
      .selectFrom('login_attempts')
      .select(['bucket', 'attempts'])
      .where('bucket', 'in', [...buckets])
      .where('minute', '=', w.minute)
      .execute();
    return Math.max(...countsOf(rows, buckets)) >= LOGIN_ATTEMPT_LIMIT;
  }
}
