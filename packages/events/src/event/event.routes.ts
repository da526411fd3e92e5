import { Type } from '@sinclair/typebox';
import { endpoint, type RequestContext, type RouteDef } from '../http/route.ts';
import { invalid, type ArgSet } from '../http/args.ts';
import { RowIdType, toRowId } from '../http/row-id.ts';
import { ApiError, forbidden, invalidParam } from '../http/errors.ts';
import { JsonText } from '../http/json-text.ts';
import {
  canModify,
  canRead,
  eventLastModified,
  isProtected,
  unlocks,
  clampPerPage,
  pageLinks,
  statusEcho,
  type Site,
} from '../post/index.ts';
import type { TermService } from '../term/index.ts';
import {
  createdFields,
  eventListArgs,
  eventWriteArgs,
  sentFields,
  type EventArgDeps,
  type EventListParams,
  type EventWriteParams,
} from './event.args.ts';
import { eventInTrash, eventNotFound, notAnEvent } from './event.errors.ts';
import type { EventRow } from './event.repository.ts';
import type { EventService } from './event.service.ts';
import { eventListFilter } from './list-filter.ts';

export interface EventRouteDeps extends EventArgDeps {
  events: EventService;
  terms: TermService;
  site: Site;
}

const withoutJsonLd = (body: JsonText): JsonText => {
  const { json_ld: _jsonLd, ...rest } = JSON.parse(body.text) as Record<string, unknown>;
  return JsonText.of(rest);
};

/** `/events`, `/events/{id}` and `/events/by-slug/{slug}` (§1.1). */
export function eventRoutes(deps: EventRouteDeps): RouteDef[] {
  const { events, site } = deps;
  const listArgs = eventListArgs(deps);
  const createArgs = eventWriteArgs(deps, true);
  const updateArgs = eventWriteArgs(deps, false);
  // As the plugin declares them; `password` unlocks a protected event (post/protected.ts reads it).
  const idSchema = {
    id: RowIdType({ description: 'the event post ID' }),
    password: Type.Optional(Type.String({ description: 'The event password' })),
  };
  const slugSchema = { slug: Type.String({ description: 'the event post name' }) };
  const slugValidator = {
    slug: async (v: unknown) => (typeof v === 'string' && (await events.findBySlug(v)) ? true : invalid()),
  };

  /** The event a by-id or by-slug request names; `undefined` when no post has that id; 'other' for a non-event post. */
  const target = async (ctx: RequestContext): Promise<EventRow | undefined | 'other'> => {
    if (ctx.pathParams.slug !== undefined) return events.findBySlug(ctx.pathParams.slug);
    const id = toRowId(ctx.pathParams.id)!;
    const row = await events.findById(id);
    if (row) return row;
    return (await deps.isPost(id)) ? 'other' : undefined;
  };
  const existing = async (ctx: RequestContext): Promise<EventRow> => {
    const row = await target(ctx);
    if (row === undefined) throw eventNotFound(ctx.pathParams.id ?? ctx.pathParams.slug!);
    if (row === 'other') throw notAnEvent();
    return row;
  };
  /** Per-post caps when the event exists; the general cap otherwise, so the handler can answer 404/400. */
  const mayModify = (action: 'edit' | 'delete') => async (ctx: RequestContext) => {
    if (!ctx.caller) return false; // no lookup: `Allow` asks this on every anonymous read
    const row = await target(ctx);
    if (row === undefined || row === 'other') return ctx.caller.can(action);
    return canModify(ctx.caller, row, action);
  };

  /** The body of an event just written; a concurrent rule change may have deleted it since (an occurrence): 404 then. */
  const written = async (ctx: RequestContext, id: number) => {
    const row = await events.findById(id);
    if (row === undefined) throw eventNotFound(id);
    return events.presentWritten(row, ctx.caller);
  };

  const item = (args: ArgSet) => [
    endpoint<Record<string, unknown>>({
      methods: ['GET'],
      args,
      async handler(ctx) {
        const row = await existing(ctx);
        if (row.status === 'trash')
          throw new ApiError('event-no-longer-available', 'This event is no longer available');
        if (!canRead(ctx.caller, row))
          throw new ApiError('event-not-accessible', 'The requested event is not accessible');
        if (isProtected(row) && !unlocks(ctx, row)) {
          throw new ApiError('event-password-protected', 'The requested event is not accessible without a password');
        }
        const body = await events.present(row, ctx.caller);
        // The plugin finds the event for its JSON-LD with a query that shows private events only to users who may read
        // others' private posts: an author reading an own private event gets no `json_ld`.
        const shown = row.status === 'private' && !ctx.caller?.can('read_private') ? withoutJsonLd(body) : body;
        return {
          body: shown,
          lastModified: eventLastModified(body),
          ...(events.cachesItems ? { responseCache: false as const } : {}),
        };
      },
    }),
    endpoint<Record<string, unknown>>({
      methods: ['DELETE'],
      args,
      permission: mayModify('delete'),
      async handler(ctx) {
        const row = await existing(ctx);
        if (row.status === 'trash') throw eventInTrash();
        await events.trash(row, ctx.now);
        return { body: await written(ctx, row.id) };
      },
    }),
    endpoint<EventWriteParams>({
      methods: ['POST', 'PUT', 'PATCH'],
      // The plugin checks that a by-slug read or delete names an event (400 otherwise) but not an update's slug, whose
      // handler answers 404 for an unknown one (issue 25): the path's slug keeps only the body's non-empty check.
      args: {
        schema: Type.Object({ ...args.schema.properties, ...updateArgs.schema.properties }),
        validators: { ...args.validators, ...updateArgs.validators },
      },
      permission: mayModify('edit'),
      async handler(ctx, p) {
        const row = await seriesTarget(ctx, p, await existing(ctx));
        guardAuthor(ctx, p);
        await events.update(ctx.caller!, row, p, sentFields(p, ctx.sent), ctx.now);
        return { body: await written(ctx, row.id) };
      },
    }),
  ];

  /**
   * The event an update applies to: `recurrence_edit=all` sent to an occurrence edits its series (the first event,
   * which carries it to every occurrence not edited alone); dates move a series only through its first event.
   */
  const seriesTarget = async (ctx: RequestContext, p: EventWriteParams, row: EventRow): Promise<EventRow> => {
    if (p.recurrence_edit !== 'all') return row;
    const role = await events.seriesRole(row.id);
    if (role.role !== 'occurrence') return row;
    if (['start_date', 'end_date', 'timezone', 'all_day'].some((k) => ctx.sent.has(k))) {
      throw invalidParam('recurrence_edit', `Dates of a series change on its first event (${role.seriesId}).`);
    }
    const first = await events.findById(role.seriesId);
    if (first === undefined) throw eventNotFound(role.seriesId);
    if (!canModify(ctx.caller!, first, 'edit')) throw forbidden(true);
    return first;
  };

  const guardAuthor = (ctx: RequestContext, p: EventWriteParams) => {
    if (p.author !== undefined && p.author !== ctx.caller!.id && !ctx.caller!.can('edit_others')) {
      throw new ApiError('rest_cannot_edit_others', 'Sorry, you are not allowed to create posts as this user.');
    }
  };

  async function list(ctx: RequestContext, p: EventListParams) {
    const perPage = clampPerPage(p.per_page);
    const { filter, window, strict } = await eventListFilter(deps, ctx.caller, ctx.now, p);
    const { items, total } = await events.list(
      { ...filter, limit: perPage, offset: (p.page - 1) * perPage },
      ctx.caller,
    );
    if (items.length === 0 && p.page > 1)
      throw new ApiError('event-archive-page-not-found', 'The requested event archive page does not exist');
    const totalPages = total === 0 ? 0 : Math.ceil(total / perPage);
    // The plugin's echo order; relative dates as the window applies them, the extra filters after them.
    const echoed: Array<[string, string]> = [
      ['page', String(p.page)],
      ['per_page', String(perPage)],
    ];
    if (window.startGte !== undefined) echoed.push(['start_date', window.startGte]);
    if (window.endLte !== undefined) echoed.push(['end_date', window.endLte]);
    if (p.search !== undefined) echoed.push(['search', p.search]);
    echoed.push(['status', statusEcho(ctx.caller, p.status)]);
    if (p.include !== undefined) echoed.push(['include', p.include.join(',')]);
    const relative = [
      ['starts_before', window.startLt],
      ['starts_after', window.startGt],
      ['ends_before', window.endLt],
      ['ends_after', window.endGt],
    ] as const;
    for (const [k, v] of relative) if (v !== undefined) echoed.push([k, v]);
    if (p.venue !== undefined) echoed.push(['venue', p.venue.join(',')]);
    if (p.organizer !== undefined) echoed.push(['organizer', p.organizer.join(',')]);
    if (p.featured !== undefined) echoed.push(['featured', p.featured ? '1' : '0']);
    for (const k of ['post_parent', 'geoloc', 'geoloc_lat', 'geoloc_lng'] as const)
      if (p[k] !== undefined) echoed.push([k, String(p[k])]);
    const kept: Array<[string, string]> = [];
    if (strict) kept.push(['strict_dates', String(p.strict_dates)]);
    for (const k of ['categories', 'tags'] as const) if (p[k] !== undefined) kept.push([k, p[k]!.join(',')]);
    const encodeRestUrl = p.venue !== undefined || p.organizer !== undefined || p.featured !== undefined;
    // The events are JSON texts already (event.service.ts); the envelope is joined around them, keys in the plugin's order.
    const rest = JSON.stringify({
      ...pageLinks(`${site.rest}/events/`, { echoed, kept, encodeRestUrl }, p.page, totalPages),
      total,
      total_pages: totalPages,
    });
    return {
      body: new JsonText(`{"events":[${items.join(',')}],${rest.slice(1)}`),
      headers: { 'X-TEC-Total': total, 'X-TEC-TotalPages': totalPages },
    };
  }

  return [
    {
      pattern: '/events',
      endpoints: [
        endpoint<EventListParams>({ methods: ['GET'], args: listArgs, handler: list }),
        endpoint<EventWriteParams>({
          methods: ['POST'],
          args: createArgs,
          permission: (ctx) => ctx.caller?.can('edit') ?? false,
          async handler(ctx, p) {
            guardAuthor(ctx, p);
            const id = await events.create(ctx.caller!, p, createdFields(p, ctx.sent), ctx.now);
            return { status: 201, body: await written(ctx, id) };
          },
        }),
      ],
    },
    { pattern: '/events/(?P<id>\\d+)', endpoints: item({ schema: Type.Object(idSchema) }) },
    {
      pattern: '/events/by-slug/(?P<slug>[^/]+)',
      endpoints: item({ schema: Type.Object(slugSchema), validators: slugValidator }),
    },
  ];
}
