import { Type } from '@sinclair/typebox';
import { declared, invalid, invalidWith, type ArgSet, type DeclarationContext, type Validator } from '../http/args.ts';
import type { Caller } from '../http/route.ts';
import { isIdText, RowIdType, toRowId, type RowId } from '../http/row-id.ts';
import {
  canRead,
  isTime,
  listStatusValidator,
  nonEmptyString,
  positiveInt,
  registeredStatus,
  type LinkedService,
} from '../post/index.ts';
import type { TermService } from '../term/index.ts';
import { formatWall, isValidZone, makeWall, utcToWall } from '../time/index.ts';
import { isProRecurrence, parseRecurrence, RecurrenceError } from '../recurrence/index.ts';
import { linkedRefsValidator, parseOrganizerRefs, parseVenueRef } from './event.links.ts';
import { createdFieldNames, fieldArgs, type EventFieldParams } from './field-rules.ts';

/** A write's parameters: the fields of their own (fields.ts) and those written together by event.writer.ts. */
export interface EventWriteParams extends EventFieldParams {
  title?: string;
  description?: string;
  excerpt?: string;
  slug?: string;
  author?: number;
  date?: string;
  date_utc?: string;
  status?: string;
  timezone?: string;
  all_day?: boolean;
  start_date?: string;
  end_date?: string;
  image?: string;
  cost?: unknown;
  sticky?: boolean;
  categories?: unknown;
  tags?: unknown;
  venue?: unknown;
  organizer?: unknown;
  /** Pro-style recurring series (our extension, src/recurrence): RFC 5545 RRULE/EXDATE/RDATE; null removes it. */
  recurrence?: unknown;
  /** On an occurrence: `single` (default) edits it alone, `all` applies the write to its series. */
  recurrence_edit?: 'single' | 'all';
  /**
   * Set by `tec/v1` only (never an argument): a cost write leaves the event's currency symbol and position as they are,
   * as TEC's newer API stores the cost alone; the plugin then shows it with the site's currency.
   */
  keep_currency?: true;
}

export interface EventListParams {
  page: number;
  per_page?: number;
  start_date?: string;
  end_date?: string;
  starts_before?: string;
  starts_after?: string;
  ends_before?: string;
  ends_after?: string;
  strict_dates?: string;
  search?: string;
  categories?: (string | number)[];
  tags?: (string | number)[];
  venue?: RowId[];
  organizer?: RowId[];
  featured?: boolean;
  status?: unknown;
  geoloc?: boolean;
  geoloc_lat?: number;
  geoloc_lng?: number;
  include?: RowId[];
  post_parent?: RowId;
  ticketed?: boolean;
}

export interface EventArgDeps {
  terms: TermService;
  venues: LinkedService;
  organizers: LinkedService;
  venueCreateArgs: ArgSet;
  organizerCreateArgs: ArgSet;
  isEvent: (id: number) => Promise<boolean>;
  /** Any post (event, venue or organizer) has this id. */
  isPost: (id: number) => Promise<boolean>;
  userExists: (id: number) => Promise<boolean>;
  /** The `image` write rule (`src/media`). */
  imageArg: Validator;
}

const S = (description: string) => Type.Optional(Type.String({ description }));
const B = (description: string) => Type.Optional(Type.Boolean({ description }));
const U = (description: string) => Type.Optional(Type.Unknown({ description }));
/** A venue or organizer id an event may link for this caller: it exists and the caller could read it directly. */
const linkable =
  (svc: LinkedService) =>
  async (id: number, caller: Caller | null): Promise<boolean> => {
    const row = await svc.get(id);
    return row !== undefined && canRead(caller, row);
  };

// The plugin's declarations (printed by the index, OPTIONS and /doc; validation is ours): id lists without a type,
// coordinates as `format: double`, references with `items` and a null default.
const untypedIntList = declared({ type: null, items: { type: 'integer' }, csv: true });
const double = declared({ type: null, format: 'double' });
const declaredIntRefs = declared({ items: { type: 'integer' }, default: null });

/** The default window as the plugin prints it: from yesterday 23:59 to now + 24 months, site time. */
const windowStartDefault = ({ now, timezone }: DeclarationContext): string => {
  const w = utcToWall(now, timezone);
  return formatWall(makeWall(w.y, w.mo, w.d - 1, 23, 59));
};
const windowEndDefault = ({ now, timezone }: DeclarationContext): string => {
  const w = utcToWall(now, timezone);
  return formatWall(makeWall(w.y, w.mo + 24, w.d, w.h, w.mi, w.s));
};

const refList = (v: unknown): unknown[] =>
  Array.isArray(v)
    ? v
    : typeof v === 'string'
      ? v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : [v];

export function eventListArgs(deps: EventArgDeps): ArgSet {
  const termsExist =
    (taxonomy: 'tribe_events_cat' | 'post_tag'): Validator =>
    async (v) => {
      for (const ref of v as unknown[]) {
        const s = String(ref);
        const ok = isIdText(s)
          ? await deps.terms.exists(taxonomy, toRowId(s)!)
          : (await deps.terms.findRef(taxonomy, s)) !== undefined;
        if (!ok) return invalid();
      }
      return true;
    };
  const linkedExist =
    (svc: LinkedService): Validator =>
    async (v) => {
      for (const id of v as number[]) if (!(await svc.get(id))) return invalid();
      return true;
    };
  // The plugin declares its date filters untyped (it parses them itself) and prints the default window as defaults.
  const dateFilter = (description: string, def?: (c: DeclarationContext) => string) =>
    Type.Optional(Type.String({ description, ...declared({ type: null, ...(def ? { default: def } : {}) }) }));
  return {
    schema: Type.Object({
      page: Type.Optional(Type.Integer({ description: 'The archive page to return', default: 1 })),
      per_page: Type.Optional(
        Type.Integer({ description: 'The number of events to return on each page', default: '10' }),
      ),
      start_date: dateFilter('Events that start on the specified date', windowStartDefault),
      end_date: dateFilter('Events that end on the specified date', windowEndDefault),
      starts_before: dateFilter('Events that start before the specified date'),
      starts_after: dateFilter('Events that start after the specified date'),
      ends_before: dateFilter('Events that end before the specified date'),
      ends_after: dateFilter('Events that end after the specified date'),
      strict_dates: Type.Optional(
        Type.String({
          description:
            'Dates set using the start_date/end_date, starts_*/ends_* are set to start at the specified times. The default behavior is to include the entire days.',
          default: 'false',
          ...declared({ type: null }),
        }),
      ),
      search: S('Events should contain the specified string in the title or description'),
      categories: Type.Optional(
        Type.Array(Type.Unknown(), {
          description: 'Events should be assigned one of the specified categories slugs or IDs',
          ...untypedIntList,
        }),
      ),
      tags: Type.Optional(
        Type.Array(Type.Unknown(), {
          description: 'Events should be assigned one of the specified tags slugs or IDs',
          ...untypedIntList,
        }),
      ),
      venue: Type.Optional(
        Type.Array(RowIdType(), {
          description: 'Events should be assigned one of the specified venue IDs',
          ...untypedIntList,
        }),
      ),
      organizer: Type.Optional(
        Type.Array(RowIdType(), {
          description: 'Events should be assigned one of the specified organizer IDs',
          ...untypedIntList,
        }),
      ),
      featured: B('Events should be filtered by their featured status'),
      status: Type.Optional(Type.Unknown({ description: 'The event post status', ...declared({ format: 'string' }) })),
      geoloc: B('Requires Events Calendar Pro. Events should be filtered by whether their venue has geolocation data'),
      geoloc_lat: Type.Optional(
        Type.Number({
          description:
            'Requires Events Calendar Pro. Events should be filtered by their venue latitude location, must also provide geoloc_lng',
          ...double,
        }),
      ),
      geoloc_lng: Type.Optional(
        Type.Number({
          description:
            'Requires Events Calendar Pro. Events should be filtered by their venue longitude location, must also provide geoloc_lat',
          ...double,
        }),
      ),
      include: Type.Optional(
        Type.Array(RowIdType(), {
          description:
            'Include events with one of the post IDs specified in the array of CSV list, date filters will be ignored.',
          ...untypedIntList,
        }),
      ),
      post_parent: Type.Optional(
        RowIdType({ description: 'Events should be filtered by their post_parent being the specified one.' }),
      ),
      ticketed: B('Filter events with or without tickets.'),
    }),
    validators: {
      page: positiveInt,
      per_page: positiveInt,
      start_date: isTime,
      end_date: isTime,
      starts_before: isTime,
      starts_after: isTime,
      ends_before: isTime,
      ends_after: isTime,
      strict_dates: nonEmptyString,
      search: nonEmptyString,
      categories: termsExist('tribe_events_cat'),
      tags: termsExist('post_tag'),
      venue: linkedExist(deps.venues),
      organizer: linkedExist(deps.organizers),
      status: listStatusValidator,
      include: (v) => ((v as number[]).every((n) => n > 0) ? true : invalid()),
      post_parent: async (v) => (typeof v === 'number' && (await deps.isEvent(v)) ? true : invalid()),
      ticketed: (v) =>
        v === true ? invalidWith('event-tickets-not-active', 'Event Tickets plugin is not activated.') : true,
    },
  };
}

export function eventWriteArgs(deps: EventArgDeps, create: boolean): ArgSet {
  const req = <T extends ReturnType<typeof Type.String>>(t: T) => (create ? t : Type.Optional(t));
  const costOk: Validator = (v) => {
    // JSON null is no cost: the plugin declares no type for `cost` and drops empty values.
    if (v === null) return true;
    const items = Array.isArray(v) ? v : [v];
    return items.every((x) => typeof x === 'string' || typeof x === 'number') ? true : invalid();
  };
  const termRefs: Validator = (v) =>
    refList(v).every((x) => typeof x === 'string' || typeof x === 'number') ? true : invalid();
  const fields = fieldArgs({
    author: Type.Optional(RowIdType({ description: 'The event author ID' })),
    date: S('The event publication date'),
    date_utc: S('The event publication date (UTC time zone)'),
    title: req(Type.String({ description: 'The event title' })),
    description: S('The event description'),
    slug: S('The event slug'),
    excerpt: S('The event excerpt'),
    status: S('The event post status'),
    timezone: S('The event time zone'),
    // Updates apply no default (README, differences); the plugin declares `false` on both.
    all_day: Type.Optional(
      Type.Boolean({
        description: 'Whether the event lasts the whole day or not',
        ...(create ? { default: false } : declared({ default: false })),
      }),
    ),
    start_date: req(Type.String({ description: 'The event start date and time' })),
    end_date: req(Type.String({ description: 'The event end date and time' })),
    image: S('The event featured image ID or URL'),
    cost: U('The event cost'),
    sticky: B('Whether the event should be sticky in the calendar view or not'),
    categories: Type.Optional(Type.Unknown({ description: 'The event category ID or name', ...declaredIntRefs })),
    tags: Type.Optional(Type.Unknown({ description: 'The event tag ID or name', ...declaredIntRefs })),
    venue: Type.Optional(Type.Unknown({ description: 'The event venue IDs or data', ...declaredIntRefs })),
    organizer: Type.Optional(Type.Unknown({ description: 'The event organizer IDs or data', ...declaredIntRefs })),
    // Extensions the plugin does not declare (Pro documents no REST recurrence field): accepted, never printed.
    recurrence: Type.Optional(
      Type.Unknown({
        description: 'The recurrence of a series (RFC 5545 RRULE, EXDATE, RDATE)',
        ...declared({ hidden: true }),
      }),
    ),
    recurrence_edit: Type.Optional(
      Type.String({
        description: 'On an occurrence: edit it alone (single) or its whole series (all)',
        ...declared({ hidden: true }),
      }),
    ),
  });
  return {
    schema: Type.Object(fields.properties),
    validators: {
      ...fields.validators,
      author: async (v) => (typeof v === 'number' && v > 0 && (await deps.userExists(v)) ? true : invalid()),
      date: isTime,
      date_utc: isTime,
      title: nonEmptyString,
      description: nonEmptyString,
      slug: nonEmptyString,
      excerpt: nonEmptyString,
      status: registeredStatus,
      start_date: isTime,
      end_date: isTime,
      timezone: (v) => (v === '' || (typeof v === 'string' && isValidZone(v)) ? true : invalid()),
      image: deps.imageArg,
      cost: costOk,
      categories: termRefs,
      tags: termRefs,
      venue: linkedRefsValidator(parseVenueRef, linkable(deps.venues), deps.venueCreateArgs),
      organizer: linkedRefsValidator(parseOrganizerRefs, linkable(deps.organizers), deps.organizerCreateArgs),
      recurrence: recurrenceArg,
      recurrence_edit: (v) =>
        v === 'single' || v === 'all' ? true : invalid('recurrence_edit must be single or all.'),
    },
  };
}

/** The `recurrence` field reads as a rule, or is a 400 naming what is wrong with it (src/recurrence/rule.ts). */
const recurrenceArg: Validator = (v) => {
  if (isProRecurrence(v)) return true; // ignored, as the plugin without Pro does (`sentFields`)
  try {
    parseRecurrence(v);
    return true;
  } catch (err) {
    if (err instanceof RecurrenceError) return invalid(err.message);
    throw err;
  }
};

/**
 * The fields a write sent that it acts on: Events Calendar Pro's `recurrence` object is accepted and ignored, as by
 * the plugin without Pro (the event is created, nothing else happens), so it counts as not sent.
 */
export const sentFields = (p: { recurrence?: unknown }, sent: ReadonlySet<string>): ReadonlySet<string> =>
  sent.has('recurrence') && isProRecurrence(p.recurrence) ? new Set([...sent].filter((k) => k !== 'recurrence')) : sent;

/**
 * The fields a create acts on: as `sentFields`, and those a create drops when empty (an empty `website`: `''`, `'0'`,
 * null), because the plugin's create passes its arguments through PHP's `array_filter` (Single_Event::create) and so
 * stores no `_EventURL`; the event then reports its own permalink as its website. An update stores the empty value.
 */
export const createdFields = (p: { recurrence?: unknown }, sent: ReadonlySet<string>): ReadonlySet<string> =>
  createdFieldNames(p, sentFields(p, sent));

export { refList };
