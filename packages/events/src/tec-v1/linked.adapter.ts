import { JsonText } from '../http/json-text.ts';
import { Type } from '@sinclair/typebox';
import type { ArgSet, Validator } from '../http/args.ts';
import type { RequestContext } from '../http/route.ts';
import type { LinkedRow, LinkedService, Site } from '../post/index.ts';
import { invalid } from '../http/args.ts';
import {
  asPositiveInt,
  email,
  gmtOfSiteDate,
  mergeArgs,
  positiveInteger,
  postBodyArgs,
  POST_STATUSES,
  S,
  U,
  uri,
} from './args.ts';
import { EntityFailure } from './gate.ts';
import type { EntityAdapter, Params } from './entity.routes.ts';
import { tecOrganizer, tecVenue } from './linked-shape.ts';
import { plainField } from './text.ts';

// Venues and organizers under `tec/v1`: their parameters mapped onto the `tribe/events/v1` service's (one model, one
// set of write rules), their rows shown in the `tec/v1` shapes.

const VENUE_FIELDS = ['address', 'country', 'city', 'state_province', 'state', 'province', 'zip', 'phone'] as const;

function detailArgs(kind: 'venue' | 'organizer'): ArgSet {
  if (kind === 'venue') {
    return {
      schema: Type.Object({
        ...Object.fromEntries(VENUE_FIELDS.map((f) => [f, S(`The venue ${f.replace('_', '/')}.`)])),
        website: U('The venue website.', { format: 'uri' }),
      }),
      validators: { website: uri },
    };
  }
  return {
    schema: Type.Object({
      phone: S('The organizer phone.'),
      website: U('The organizer website.', { format: 'uri' }),
      email: U('The organizer email.', { format: 'email' }),
    }),
    validators: { website: uri, email },
  };
}

/** The statuses a list shows: `publish` for readers who cannot edit (their `status` is ignored), else as asked. */
export function listStatuses(ctx: RequestContext, status: unknown): string[] {
  if (!ctx.caller?.can('edit') || status === undefined) return ['publish'];
  return Array.isArray(status)
    ? status.map(String)
    : String(status)
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
}

/** `status` on lists: statuses of the enum, as a list or comma-separated. */
export const statusList: Validator = (v) => {
  const list = Array.isArray(v) ? v : String(v).split(',');
  return list.every((s) => (POST_STATUSES as readonly string[]).includes(String(s).trim())) ? true : invalid();
};

/** `tec/v1` body fields → the service's parameters, and which of them were sent. */
function toServiceParams(
  ctx: RequestContext,
  siteZone: string,
  nameField: string,
  p: Params,
): { params: Params; sent: Set<string> } {
  const sent = ctx.sent;
  const params: Params = {};
  const out = new Set<string>();
  const put = (to: string, v: unknown) => {
    params[to] = v;
    out.add(to);
  };
  if (sent.has('title')) put(nameField, plainField(p.title));
  if (sent.has('content')) put('description', plainField(p.content));
  if (sent.has('excerpt')) put('excerpt', plainField(p.excerpt));
  if (sent.has('status')) put('status', p.status);
  if (sent.has('date')) put('date', p.date);
  if (sent.has('date_gmt')) put('date_utc', p.date_gmt);
  else if (sent.has('date')) put('date_utc', gmtOfSiteDate(siteZone, p.date, ctx.now));
  if (sent.has('slug')) put('slug', p.slug);
  if (sent.has('author')) put('author', asPositiveInt(p.author));
  for (const f of ['address', 'country', 'city', 'state', 'province', 'zip', 'phone', 'website', 'email'])
    if (sent.has(f)) put(f, p[f]);
  // The region is stored as sent (TEC does not derive it from the state or province).
  if (sent.has('state_province')) put('stateprovince', p.state_province);
  return { params, sent: out };
}

export function linkedAdapter(
  site: Site,
  service: LinkedService,
  userExists: (id: number) => Promise<boolean>,
): EntityAdapter<LinkedRow> {
  const kind = service.kind.kind;
  const shape = kind === 'venue' ? tecVenue : tecOrganizer;
  const body = mergeArgs(postBodyArgs(userExists), detailArgs(kind));
  return {
    type: service.kind.type as 'tribe_venue' | 'tribe_organizer',
    route: service.kind.route,
    cachesItems: false,
    listArgs: {
      schema: Type.Object({
        search: S('Limit results to those matching a string.'),
        event: U('Limit results to those linked to this event.'),
        has_events: U('Limit results to those with events.'),
        only_with_upcoming: U('Limit results to those with upcoming events.'),
        status: U('Limit results to those with these statuses.', { default: ['publish'] }),
      }),
      validators: { event: positiveInteger, status: statusList },
    },
    linkArgs: { arrays: ['status'], booleans: ['has_events', 'only_with_upcoming'] },
    createArgs: body,
    updateArgs: body,
    find: async (id) => {
      const row = await service.get(id);
      return row?.type === service.kind.type ? row : undefined;
    },
    async list(ctx, p, page, perPage) {
      const { rows, total } = await service.list({
        visibility: { statuses: listStatuses(ctx, p.status) },
        tokens: typeof p.search === 'string' && p.search !== '' ? [p.search] : undefined,
        titleOnly: true,
        eventId: asPositiveInt(p.event),
        // As on the reference: `has_events` (true or false alike) keeps those linked to an event.
        hasEvents: p.has_events === undefined ? undefined : true,
        limit: perPage,
        offset: (page - 1) * perPage,
      });
      return { texts: rows.map((r) => JSON.stringify(shape(site, r))), total };
    },
    present: async (_ctx, row) => JsonText.of(shape(site, row)),
    async create(ctx, p) {
      if (typeof p.title !== 'string' || plainField(p.title) === '') throw new EntityFailure('create');
      const { params, sent } = toServiceParams(ctx, site.timezone, service.kind.nameField, p);
      // TEC stores the region only as sent: nothing sent is an empty region, not one derived from state/province.
      if (kind === 'venue' && !sent.has('stateprovince')) {
        params.stateprovince = '';
        sent.add('stateprovince');
      }
      return service.create(ctx.caller!, params, sent, ctx.now, { dedupe: false });
    },
    async update(ctx, row, p) {
      const { params, sent } = toServiceParams(ctx, site.timezone, service.kind.nameField, p);
      if (sent.has(service.kind.nameField) && params[service.kind.nameField] === '') throw new EntityFailure('update');
      if (kind === 'venue' && !sent.has('stateprovince')) {
        params.stateprovince = row.stateprovince ?? '';
        sent.add('stateprovince');
      }
      await service.update(ctx.caller!, row.id, params, sent, ctx.now);
    },
    trash: (ctx, row) => service.trash(row, ctx.now),
    remove: (row) => service.remove(row),
  };
}
