import { Type, type TSchema } from '@sinclair/typebox';
import type { EventColumnName, EventColumnsPatch, NewEventColumns, OccurrenceRule } from '../db/index.ts';
import { declared, invalid, phpTruthy, type Validator } from '../http/args.ts';
import { isUrlOrEmpty, type WriteFilters } from '../post/index.ts';
import type { EventRow } from './event.repository.ts';

// One descriptor per column of `events`: what an occurrence takes from its series' first event, what a create that
// does not set it stores, and, for a field written and shown on its own, its REST argument, write rule and place in
// each namespace's answer. The rest (select list, insert, occurrence copy, argument lists, bodies, blanked body,
// /doc) is derived in field-rules.ts, so a new field is one entry here plus its column (migration, db/schema.ts).

/** How a `tec/v1` argument maps onto the `tribe/events/v1` field, and where the field shows in the answer. */
export interface TecField {
  /** The `tec/v1` argument this one precedes in the argument list. */
  readonly argBefore: string;
  /** The `tec/v1` body key this one precedes. */
  readonly before: string;
  readonly arg: TSchema;
  readonly validate?: Validator;
  /** The `tribe/events/v1` parameter value of a sent `tec/v1` value. */
  readonly toParam: (value: unknown) => unknown;
}

/** A field a request writes and an answer shows on its own; its REST name is its column's. */
export interface RestField<C extends EventColumnName> {
  /** The `tribe/events/v1` argument, body key and `/doc` property this one precedes (fields that precede the same
   *  key keep the table's order). */
  readonly before: string;
  readonly arg: TSchema;
  readonly validate?: Validator;
  /** The column value a sent (and checked) value becomes. */
  readonly write: (value: unknown, kses: WriteFilters) => EventColumnsPatch[C];
  /** A create leaves the field unset when this holds (the plugin passes its create arguments through `array_filter`). */
  readonly createDrops?: (value: unknown) => boolean;
  /** The value in both namespaces' answers; `url` is the event's permalink. */
  readonly show: (row: EventRow, url: string) => unknown;
  /** The value while a list shows the event password-protected (compat §1.3). */
  readonly blanked: unknown;
  /** The `/doc` Event property (type, description). */
  readonly doc: Readonly<Record<string, unknown>>;
  /** Absent: `tec/v1` neither takes nor shows the field. */
  readonly tec?: TecField;
}

export interface EventField<C extends EventColumnName> {
  readonly occurrence: OccurrenceRule;
  /** What a create stores when it does not set the column; absent: every create sets it (dates and zone). */
  readonly insert?: NewEventColumns[C];
  readonly rest?: RestField<C>;
}

export { phpTruthy };

type FlagColumn = 'show_map' | 'show_map_link' | 'hide_from_listings' | 'featured';

/** A 0/1 column: a boolean argument, 0 unless sent, shown as a boolean, null while protected. */
const flag = (
  column: FlagColumn,
  text: { arg: string; doc: string; before: string },
  tec?: { arg: string; argBefore: string; before: string },
) => ({
  occurrence: 'copy' as const,
  insert: 0,
  rest: {
    before: text.before,
    arg: Type.Optional(Type.Boolean({ description: text.arg })),
    write: (v: unknown) => (v ? 1 : 0),
    show: (e: EventRow) => e[column] === 1,
    blanked: null,
    doc: { type: 'boolean', description: text.doc },
    ...(tec && {
      tec: {
        argBefore: tec.argBefore,
        before: tec.before,
        arg: Type.Optional(Type.Unknown({ description: tec.arg })),
        toParam: phpTruthy,
      },
    }),
  },
});

/** An empty website sent to a create: the plugin stores no `_EventURL`, and the event reports its own URL. */
const emptyWebsite = (v: unknown) => v === null || v === undefined || v === '' || v === '0' || v === 0;

/**
 * Every column of `events` but its key, in select-list order. Dates, zone, all-day, cost, venue, image, series link
 * and duration are written together by event.writer.ts (`eventDates`, cost parsing, linked posts, images, series)
 * and shown by event.format.ts / tec-v1/event-shape.ts; the others are fields of their own.
 */
export const EVENT_FIELDS = {
  start_local: { occurrence: 'dates' },
  end_local: { occurrence: 'dates' },
  start_utc: { occurrence: 'dates' },
  end_utc: { occurrence: 'dates' },
  timezone: { occurrence: 'copy' },
  all_day: { occurrence: 'copy' },
  cost: { occurrence: 'copy', insert: null },
  currency_symbol: { occurrence: 'copy', insert: '' },
  currency_position: { occurrence: 'copy', insert: '' },
  website: {
    occurrence: 'copy',
    // null: never set, shown as the event's permalink; an update stores '' and shows it.
    insert: null,
    rest: {
      before: 'sticky',
      arg: Type.Optional(Type.Unknown({ description: 'The event website URL', ...declared({ default: null }) })),
      validate: (v) => (isUrlOrEmpty(v) ? true : invalid()),
      write: (v, kses) => (v === null || v === undefined ? '' : kses.url(String(v))),
      createDrops: emptyWebsite,
      // `_EventURL` when stored, else the event's own URL (Post_Repository: `isset`).
      show: (e, url) => e.website ?? url,
      blanked: '',
      doc: { type: 'string', description: 'The event website URL' },
    },
  },
  show_map: flag('show_map', {
    arg: 'Whether the event should show a map or not',
    doc: 'Whether the map should be shown for the event or not',
    before: 'sticky',
  }),
  show_map_link: flag('show_map_link', {
    arg: 'Whether the event should show a map link or not',
    doc: 'Whether the map link should be shown for the event or not',
    before: 'sticky',
  }),
  hide_from_listings: flag('hide_from_listings', {
    arg: 'Whether events should be hidden in the calendar view or not',
    doc: 'Whether an event should be hidden from the calendar view or not',
    before: 'sticky',
  }),
  featured: flag(
    'featured',
    {
      arg: 'Whether the event should be featured on the site or not',
      doc: 'Whether the event is featured in the calendar or not',
      before: 'categories',
    },
    { arg: 'Whether the event is featured.', argBefore: 'cost', before: 'sticky' },
  ),
  venue_id: { occurrence: 'copy', insert: null },
  parent_id: { occurrence: 'series', insert: null },
  thumbnail_id: { occurrence: 'copy', insert: null },
  // TEC's `_EventDuration` is what one write sent; an occurrence has none and reads end − start.
  duration: { occurrence: 'own' },
} as const satisfies { [C in EventColumnName]: EventField<C> };
