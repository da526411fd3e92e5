import type { EventColumns, EventsTable } from './schema.ts';

/**
 * What an occurrence of a recurring series takes from its first event, per column: `copy` the first event's value,
 * `dates` its own start and end (recurrence/series.sync.ts), `series` the first event's id, `own` nothing (left as
 * written for the occurrence itself).
 */
export type OccurrenceRule = 'copy' | 'dates' | 'series' | 'own';

/**
 * Every column of `events` but its key, once: the event select list and the occurrence copy derive from it, and
 * `satisfies` over the table's keys makes a new column that is not listed here a compile error.
 */
export const EVENT_COLUMNS = {
  start_local: 'dates',
  end_local: 'dates',
  start_utc: 'dates',
  end_utc: 'dates',
  timezone: 'copy',
  all_day: 'copy',
  cost: 'copy',
  currency_symbol: 'copy',
  currency_position: 'copy',
  website: 'copy',
  show_map: 'copy',
  show_map_link: 'copy',
  hide_from_listings: 'copy',
  featured: 'copy',
  venue_id: 'copy',
  parent_id: 'series',
  thumbnail_id: 'copy',
  // TEC's `_EventDuration` is what one write sent; an occurrence has none and reads end − start.
  duration: 'own',
} as const satisfies Record<Exclude<keyof EventsTable, 'post_id'>, OccurrenceRule>;

export type EventColumnName = keyof typeof EVENT_COLUMNS;
type CopiedColumn = { [K in EventColumnName]: (typeof EVENT_COLUMNS)[K] extends 'copy' ? K : never }[EventColumnName];

const names = Object.keys(EVENT_COLUMNS) as EventColumnName[];

/** `events.start_local`, … every column, in declaration order, for the event select list. */
export const EVENT_SELECT = names.map((c) => `events.${c}` as const);

const copied = names.filter((c): c is CopiedColumn => EVENT_COLUMNS[c] === 'copy');

/** The columns an occurrence copies from its series' first event. */
export function occurrenceCopy(first: EventColumns): Pick<EventColumns, CopiedColumn> {
  const out: Partial<Pick<EventColumns, CopiedColumn>> = {};
  for (const c of copied) Object.assign(out, { [c]: first[c] });
  return out as Pick<EventColumns, CopiedColumn>;
}
