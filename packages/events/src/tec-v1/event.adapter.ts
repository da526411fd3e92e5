import { JsonText } from '../http/json-text.ts';
import { Type } from '@sinclair/typebox';
import { invalid, type Validator } from '../http/args.ts';
import type { RequestContext } from '../http/route.ts';
import type { EventService } from '../event/index.ts';
import type { EventRow } from '../event/event.repository.ts';
import type { EventWriteParams } from '../event/event.args.ts';
import type { EventListFilter, EventOrder } from '../event/event.repository.ts';
import { canModify, canRead, type LinkedService, type Site } from '../post/index.ts';
import type { TermService } from '../term/index.ts';
import {
  formatWall,
  isValidZone,
  parseDateTime,
  parseWall,
  utcToWall,
  wallFromEpoch,
  wallToEpoch,
} from '../time/index.ts';
import {
  asPositiveInt,
  eventDate,
  gmtOfSiteDate,
  mergeArgs,
  oneOf,
  phpTruthy,
  positiveInteger,
  positiveIntegerList,
  postBodyArgs,
  S,
  U,
} from './args.ts';
import type { EntityAdapter, Params } from './entity.routes.ts';
import { tecEvent, tecEventValidUntil } from './event-shape.ts';
import { EVENT_FIELD_SHAPES } from '../event/index.ts';
import { EntityFailure } from './gate.ts';
import { listStatuses, statusList } from './linked.adapter.ts';
import { plainField } from './text.ts';
import { parseFieldList } from '../http/response-shape.ts';

// Events under `tec/v1` (NOTES §3): parameters mapped onto the `tribe/events/v1` event service's, so both namespaces
// write through the same rules and read the same cached rows; bodies in the `tec/v1` shape.

export interface EventAdapterDeps {
  readonly site: Site;
  readonly events: EventService;
  readonly terms: TermService;
  readonly venues: LinkedService;
  readonly organizers: LinkedService;
  readonly userExists: (id: number) => Promise<boolean>;
}

const ORDER_BY = ['date', 'event_date', 'title', 'menu_order', 'modified'] as const;

/** The plugin's `categories`/`tags` list filter: a lone value is refused, a list is accepted (and not applied). */
const termListFilter: Validator = (v) =>
  Array.isArray(v) || (typeof v === 'string' && v.includes(',')) ? true : invalid();

const idsOf = (v: unknown): number[] =>
  (Array.isArray(v) ? v : String(v).split(',')).map(asPositiveInt).filter((x): x is number => x !== undefined);

/** A list date bound as a local wall time in the site's zone (anything PHP's strtotime reads; not the body pattern). */
function bound(site: Site, v: unknown, now: number): string | undefined {
  if (typeof v !== 'string') return undefined;
  const ms = parseDateTime(v, site.timezone, now);
  return ms === undefined ? undefined : formatWall(utcToWall(ms, site.timezone));
}

const addSeconds = (wall: string, seconds: number): string =>
  formatWall(wallFromEpoch(wallToEpoch(parseWall(wall)) + seconds * 1000));

export function eventAdapter(deps: EventAdapterDeps): EntityAdapter<EventRow> {
  const { site, events, terms, venues, organizers } = deps;
  const existingIds = async (svc: LinkedService, ids: number[]) => {
    const rows = await svc.many(ids);
    return ids.filter((id) => rows.get(id)?.type === svc.kind.type);
  };
  const linkedList =
    (svc: LinkedService): Validator =>
    async (v) => {
      const ids = idsOf(v);
      if (ids.length === 0 || (await existingIds(svc, ids)).length !== ids.length) return invalid();
      return true;
    };

  // The event's fields of their own (event/fields.ts) take their places among these.
  const own = EVENT_FIELD_SHAPES.tecArgs({
    tribe_events_cat: U('The terms assigned to the event in the tribe_events_cat taxonomy.'),
    start_date: U('The start date of the event.'),
    start_date_utc: U('The start date of the event in UTC.'),
    end_date: U('The end date of the event.'),
    end_date_utc: U('The end date of the event in UTC.'),
    timezone: S('The timezone of the event.'),
    duration: U('The duration of the event in seconds.'),
    all_day: U('Whether the event is all day.'),
    cost: S('The cost of the event.'),
    organizers: U('The organizers of the event.'),
    venues: U('The venues of the event.'),
  });
  const body = mergeArgs(postBodyArgs(deps.userExists), {
    schema: Type.Object(own.properties),
    validators: {
      ...own.validators,
      tribe_events_cat: positiveIntegerList,
      start_date: eventDate,
      start_date_utc: eventDate,
      end_date: eventDate,
      end_date_utc: eventDate,
      duration: positiveInteger,
      organizers: positiveIntegerList,
      venues: positiveIntegerList,
    },
  });

  /** The tribe/events/v1 write parameters of a `tec/v1` body, and which were sent. */
  async function toWrite(
    ctx: RequestContext,
    p: Params,
    existing: EventRow | undefined,
  ): Promise<{ params: EventWriteParams; sent: Set<string> }> {
    const params: Record<string, unknown> = {};
    const sent = new Set<string>();
    const put = (k: string, v: unknown) => {
      params[k] = v;
      sent.add(k);
    };
    const has = (k: string) => ctx.sent.has(k);
    if (has('title')) put('title', plainField(p.title));
    if (has('content')) put('description', plainField(p.content));
    if (has('excerpt')) put('excerpt', plainField(p.excerpt));
    for (const k of ['slug', 'status', 'date', 'start_date', 'end_date', 'cost'] as const) if (has(k)) put(k, p[k]);
    if (has('cost')) params.keep_currency = true;
    if (has('date_gmt')) put('date_utc', p.date_gmt);
    else if (has('date')) put('date_utc', gmtOfSiteDate(site.timezone, p.date, ctx.now));
    if (has('author')) put('author', asPositiveInt(p.author));
    // A zone PHP does not know is stored as UTC, as on the reference.
    if (has('timezone'))
      put('timezone', typeof p.timezone === 'string' && isValidZone(p.timezone) ? p.timezone : 'UTC');
    for (const k of ['all_day', 'sticky'] as const) if (has(k)) put(k, phpTruthy(p[k]));
    for (const [k, v] of EVENT_FIELD_SHAPES.tecParams(p, has)) put(k, v);
    // As on the reference: a write that sends `all_day` without `sticky` leaves the event not sticky.
    if (has('all_day') && !has('sticky')) put('sticky', false);
    if (has('duration') && !has('end_date')) {
      const start = (params.start_date as string | undefined) ?? existing?.start_local;
      if (start !== undefined) put('end_date', addSeconds(start, asPositiveInt(p.duration)!));
    }
    // Unknown ids are dropped; an empty venue list leaves the venue as it is, an empty organizer list unlinks all.
    if (has('venues')) {
      const ids = await existingIds(venues, idsOf(p.venues));
      if (ids.length > 0) put('venue', ids[0]);
    }
    if (has('organizers')) put('organizer', await existingIds(organizers, idsOf(p.organizers)));
    if (has('tags')) put('tags', idsOf(p.tags));
    if (has('tribe_events_cat')) put('categories', idsOf(p.tribe_events_cat));
    return { params: params as EventWriteParams, sent };
  }

  /**
   * TEC publishes the draft venues and organizers a published event is saved with (the linked-post publication
   * hook); the caller must be allowed to publish them.
   */
  async function publishLinked(ctx: RequestContext, eventId: number, p: Params): Promise<void> {
    const event = await events.findById(eventId);
    if (event?.status !== 'publish') return;
    for (const [svc, key] of [
      [venues, 'venues'],
      [organizers, 'organizers'],
    ] as const) {
      if (!ctx.sent.has(key)) continue;
      const rows = await svc.many(idsOf(p[key]));
      for (const r of rows.values()) {
        if (
          r.type === svc.kind.type &&
          r.status === 'draft' &&
          canModify(ctx.caller, r, 'edit') &&
          ctx.caller!.can('publish')
        ) {
          await svc.update(ctx.caller!, r.id, { status: 'publish' }, new Set(['status']), ctx.now);
        }
      }
    }
  }

  /**
   * Bodies of many events, with links and terms read in a few queries; linked posts only as far as the reader may
   * read them (issue 16). `restricted`: the event links a post that is not published, so its body is the reader's own.
   */
  async function build(ctx: RequestContext, rows: readonly EventRow[], fields?: ReadonlySet<string>) {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.id);
    const [orgIds, termMap, venueRows] = await Promise.all([
      events.organizersOf(ids),
      terms.repo.termsOfEvents(ids),
      venues.many(rows.map((r) => r.venue_id).filter((v): v is number => v !== null)),
    ]);
    const orgRows = await organizers.many([...orgIds.values()].flat());
    const shown = <T extends { status: string; author: number }>(row: T | undefined): row is T =>
      row !== undefined && canRead(ctx.caller, row);
    return rows.map((r) => {
      const venue = r.venue_id === null ? undefined : venueRows.get(r.venue_id);
      const orgs = (orgIds.get(r.id) ?? []).map((id) => orgRows.get(id));
      const restricted = [venue, ...orgs].some((l) => l !== undefined && l.status !== 'publish');
      const body = tecEvent(
        site,
        r,
        { venues: [venue].filter(shown), organizers: orgs.filter(shown), terms: termMap.get(r.id) ?? [] },
        ctx.now,
        fields,
      );
      return { body, restricted, until: tecEventValidUntil(site, r, ctx.now) };
    });
  }

  /**
   * JSON texts of `rows` as `ctx`'s reader sees them. Bodies every reader shares are kept beside the event service's
   * cached rows (until a change, or until `is_now`/`is_past` would change); `_fields` builds fresh ones, as TEC builds
   * the nested venues and organizers with the request's `_fields` too (post fields outside it left out).
   */
  async function present(ctx: RequestContext, rows: readonly EventRow[]): Promise<JsonText[]> {
    if (ctx.query._fields !== undefined) {
      const fields = new Set(parseFieldList(ctx.query._fields));
      return (await build(ctx, rows, fields)).map((b) => JsonText.of(b.body));
    }
    return events.views(rows, 'tec/v1', ctx.now, async (missing) =>
      (await build(ctx, missing)).map((b) => ({
        text: JSON.stringify(b.body),
        until: b.restricted ? undefined : b.until,
      })),
    );
  }

  return {
    type: 'tribe_events',
    route: 'events',
    cachesItems: events.cachesItems,
    listArgs: {
      schema: Type.Object({
        start_date: S('Limit to events starting after this date.'),
        end_date: S('Limit to events ending before this date.'),
        starts_before: S('Limit to events starting before this date.'),
        starts_after: S('Limit to events starting after this date.'),
        ends_before: S('Limit to events ending before this date.'),
        ends_after: S('Limit to events ending after this date.'),
        search: S('Limit results to those matching a string.'),
        categories: U('Limit to events in these categories.'),
        tags: U('Limit to events with these tags.'),
        venue: U('Limit to events at these venues.'),
        organizer: U('Limit to events by these organizers.'),
        featured: U('Limit to featured events.'),
        status: U('Limit to events with these statuses.', { default: ['publish'] }),
        post_parent: U('Limit to events with this parent.'),
        ticketed: U('Limit to ticketed events.'),
        orderby: U('Sort the collection by this attribute.', { default: 'event_date' }),
        order: U('Order sort attribute ascending or descending.', { default: 'ASC' }),
      }),
      validators: {
        categories: termListFilter,
        tags: termListFilter,
        venue: linkedList(venues),
        organizer: linkedList(organizers),
        status: statusList,
        post_parent: positiveInteger,
        orderby: oneOf(ORDER_BY),
        order: oneOf(['ASC', 'DESC']),
      },
    },
    linkArgs: { arrays: ['categories', 'tags', 'venue', 'organizer', 'status'], booleans: ['featured', 'ticketed'] },
    createArgs: body,
    updateArgs: body,
    find: async (id) => {
      const row = await events.findById(id);
      return row?.type === 'tribe_events' ? row : undefined;
    },
    async list(ctx, p, page, perPage) {
      const statuses = listStatuses(ctx, p.status);
      const f: EventListFilter = {
        visibility:
          ctx.caller?.can('edit_others') === false && ctx.caller.can('edit')
            ? { statuses, ownerId: ctx.caller.id }
            : { statuses },
        startGte: bound(site, p.start_date, ctx.now),
        endLte: bound(site, p.end_date, ctx.now),
        startLt: bound(site, p.starts_before, ctx.now),
        startGt: bound(site, p.starts_after, ctx.now),
        endLt: bound(site, p.ends_before, ctx.now),
        endGt: bound(site, p.ends_after, ctx.now),
        words: typeof p.search === 'string' && p.search.trim() !== '' ? p.search.trim().split(/\s+/) : undefined,
        venueIds: p.venue === undefined ? undefined : idsOf(p.venue),
        organizerIds: p.organizer === undefined ? undefined : idsOf(p.organizer),
        // As on the reference, any `featured` value lists the featured events.
        featured: p.featured === undefined ? undefined : true,
        parentId: asPositiveInt(p.post_parent),
        order: { by: (p.orderby as EventOrder['by'] | undefined) ?? 'event_date', desc: p.order === 'DESC' },
        limit: perPage,
        offset: (page - 1) * perPage,
      };
      const { rows, total } = await events.listRows(f);
      return { texts: (await present(ctx, rows)).map((j) => j.text), total };
    },
    present: async (ctx, row) => (await present(ctx, [row]))[0]!,
    async create(ctx, p) {
      const title = plainField(p.title);
      const { params, sent } = await toWrite(ctx, p, undefined);
      if (typeof title !== 'string' || title === '' || params.start_date === undefined || params.end_date === undefined)
        throw new EntityFailure('create');
      if (params.end_date < params.start_date) throw new EntityFailure('create');
      const id = await events.create(ctx.caller!, params, sent, ctx.now);
      await publishLinked(ctx, id, p);
      return id;
    },
    async update(ctx, row, p) {
      const { params, sent } = await toWrite(ctx, p, row);
      if (sent.has('title') && params.title === '') throw new EntityFailure('update');
      // Every update is a save, even one that changes nothing (an empty body, an empty venue list): `modified` moves.
      await events.update(ctx.caller!, row, params, sent, ctx.now);
      await publishLinked(ctx, row.id, p);
    },
    trash: (ctx, row) => events.trash(row, ctx.now),
    remove: (row) => events.remove(row),
  };
}
