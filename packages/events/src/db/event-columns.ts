import type { EventColumns, EventsTable } from './schema.ts';

/**
 * What an occurrence of a recurring series takes from its first event, per column: `copy` the first event's value,
 * `dates` its own start and end (recurrence/series.sync.ts), `series` the first event's id, `own` nothing (left as
 * written for the occurrence itself). Each column's rule is in its descriptor (event/fields.ts).
 */
export type OccurrenceRule = 'copy' | 'dates' | 'series' | 'own';

/** Every column of `events` but its key. */
export type EventColumnName = Exclude<keyof EventsTable, 'post_id'>;

/** What an occurrence copies from its first event: the `copy` columns, the zone among them. */
export type OccurrenceColumns = Pick<EventColumns, 'timezone'> &
  Partial<Omit<EventColumns, 'post_id' | 'start_local' | 'end_local' | 'start_utc' | 'end_utc' | 'parent_id'>>;
