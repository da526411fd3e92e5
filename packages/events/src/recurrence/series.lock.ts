import { sql, type Kysely } from 'kysely';
import { isPostgres, type Database } from '../db/index.ts';

/** An event as a write found it once its series was locked: its status, and the series it is an occurrence of. */
export interface LockedMember {
  readonly status: string;
  /** The first event of its series when it is an occurrence (`undefined`: a first event or a plain event). */
  readonly seriesId: number | undefined;
  /** Deleted on its own: in the trash and out of its series. */
  readonly excluded: boolean;
}

/**
 * Locks the series event `id` belongs to (the first event's `posts` row, `SELECT … FOR UPDATE`) before the transaction
 * touches any of its rows, and reads the event again under that lock. Every write of a series or of one of its
 * occurrences starts here, so they take their locks in one order and run one at a time per series (on PostgreSQL; an
 * SQLite database has one writer at a time anyway). `undefined` when the event no longer exists: a concurrent rule
 * change deleted it.
 * @example const member = await lockSeriesOf(trx, id); if (member === undefined) throw eventNotFound(id)
 */
export async function lockSeriesOf(trx: Kysely<Database>, id: number): Promise<LockedMember | undefined> {
  const occurrenceOf = () =>
    trx.selectFrom('event_occurrences').select(['series_id', 'excluded']).where('post_id', '=', id).executeTakeFirst();
  const before = await occurrenceOf();
  if (isPostgres(trx)) await sql`select id from posts where id = ${before?.series_id ?? id} for update`.execute(trx);
  // Read under the lock: whoever held it may have deleted the event or detached it from its series.
  const post = await trx.selectFrom('posts').select('status').where('id', '=', id).executeTakeFirst();
  if (post === undefined) return undefined;
  const occ = before === undefined ? undefined : await occurrenceOf();
  return { status: post.status, seriesId: occ?.series_id, excluded: occ?.excluded === 1 };
}
