import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../db/index.ts';
import { POST_DATE_COLUMNS, postRepository } from '../post/index.ts';
import { readStoredWall, STORABLE_RANGE } from '../time/index.ts';
import { EVENT_DATE_COLUMNS, eventRepository } from './event.repository.ts';

export interface BadStoredDate {
  id: number;
  column: string;
  value: string;
}

/** Stored date-times that no write of this service makes (SQL from outside, older versions), by post id. */
export async function findBadStoredDates(db: Kysely<Database>): Promise<BadStoredDate[]> {
  const out: BadStoredDate[] = [];
  const collect = (id: number, row: Record<string, unknown>, columns: readonly string[]) => {
    for (const column of columns) {
      const value = row[column];
      if (readStoredWall(value as string) === undefined) out.push({ id, column, value: String(value) });
    }
  };
  for (const r of await postRepository(db).badDates()) collect(r.id, r, POST_DATE_COLUMNS);
  for (const r of await eventRepository(db).badDates()) collect(r.post_id, r, EVENT_DATE_COLUMNS);
  return out;
}

/**
 * The start-up check: logs each broken stored date with how to repair it. Such rows are served (their dates shown
 * as `""`), so the service starts anyway; an administrator repairs them through the API or SQL.
 * @example await reportBadStoredDates(store.db, logger) // at start-up, before listening
 */
export async function reportBadStoredDates(db: Kysely<Database>, logger: Logger): Promise<BadStoredDate[]> {
  const bad = await findBadStoredDates(db);
  for (const b of bad) {
    logger.warn(
      { ...b, range: STORABLE_RANGE },
      `post ${b.id} has an invalid stored ${b.column}: send new dates as an administrator ` +
        `(PUT /wp-json/tribe/events/v1/events/${b.id} with start_date and end_date, or date for a post date), ` +
        'trash it with DELETE, or correct the row in SQL',
    );
  }
  return bad;
}
