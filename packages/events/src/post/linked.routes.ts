import { Type } from '@sinclair/typebox';
import { endpoint, type RequestContext, type RouteDef } from '../http/route.ts';
import { declared, invalid, type Validator } from '../http/args.ts';
import { ApiError } from '../http/errors.ts';
import { RowIdType, toRowId, type RowId } from '../http/row-id.ts';
import { formatWall, utcToWall } from '../time/index.ts';
import { canModify, canRead } from './status.ts';
import { storedUtcMs } from './last-modified.ts';
import { blankLinked, isProtected, shownLinked, unlocks } from './protected.ts';
import { clampPerPage, listStatusValidator, listVisibility, pageLinks, statusEcho } from './listing.ts';
import { isTime, nonEmptyString, positiveInt, registeredStatus, urlOrEmpty } from './validators.ts';
import type { LinkedService, Params } from './linked.service.ts';
import type { LinkedRow } from './linked.repository.ts';
import type { Site } from './site.ts';

export interface LinkedRouteDeps {
  readonly service: LinkedService;
  readonly site: Site;
  readonly isEvent: (id: number) => Promise<boolean>;
  readonly userExists: (id: number) => Promise<boolean>;
  /** The `image` write rule (`src/media`): empty, an image attachment id, or a URL for callers with `upload_files`. */
  readonly imageArg: Validator;
}

/** PHP's tribe_is_truthy. */
export const isTruthy = (v: unknown): boolean =>
  v === true || v === 1 || (typeof v === 'string' && ['true', '1', 'yes', 'on'].includes(v.toLowerCase()));

/** Word tokens of a venue/organizer search: runs of letters, digits and `-`. */
export const searchTokens = (s: string): string[] =>
  s
    .match(/[\p{L}\p{N}@.:/_-]+/gu)
    ?.flatMap((t) => t.split(/[@.:/_]+/))
    .filter(Boolean) ?? [];

/** Venue and organizer write args, shared by their routes and by inline data inside event writes. */
export function linkedWriteArgs(
  deps: Pick<LinkedRouteDeps, 'service' | 'userExists' | 'imageArg'>,
  requireName: boolean,
) {
  const kind = deps.service.kind;
  // The plugin's declarations as the index prints them; `declared` never changes what validation applies.
  const nullDefault = (key: string) => (kind.declaredNullDefaults.includes(key) ? declared({ default: null }) : {});
  const asString = (key: string) =>
    declared({ type: 'string', ...(kind.declaredNullDefaults.includes(key) ? { default: null } : {}) });
  const name = Type.String({ description: `The ${kind.kind} name`, ...nullDefault(kind.nameField) });
  const schema = Type.Object({
    author: Type.Optional(RowIdType({ description: `The ${kind.kind} author ID`, ...nullDefault('author') })),
    date: Type.Optional(Type.Unknown({ description: `The ${kind.kind} publication date`, ...asString('date') })),
    date_utc: Type.Optional(
      Type.Unknown({ description: `The ${kind.kind} publication date (UTC time zone)`, ...asString('date_utc') }),
    ),
    [kind.nameField]: requireName ? name : Type.Optional(name),
    description: Type.Optional(
      Type.String({ description: `The ${kind.kind} description`, ...nullDefault('description') }),
    ),
    status: Type.Optional(Type.String({ description: `The ${kind.kind} post status`, ...nullDefault('status') })),
    ...kind.writeArgs,
    website: Type.Optional(
      Type.String({
        description: kind.kind === 'venue' ? 'The venue website URL' : 'The organizer website',
        ...nullDefault('website'),
      }),
    ),
    // Sic: the plugin describes the venue's image as the organizer's.
    image: Type.Optional(Type.Unknown({ description: 'The organizer featured image ID or URL', ...asString('image') })),
  });
  const userExists = deps.userExists;
  const validators: Record<string, Validator> = {
    author: async (v) => (typeof v === 'number' && v > 0 && (await userExists(v)) ? true : invalid()),
    date: isTime,
    date_utc: isTime,
    [kind.nameField]: nonEmptyString,
    status: registeredStatus,
    website: urlOrEmpty,
    image: deps.imageArg,
    ...kind.writeValidators,
  };
  return { schema, validators };
}

/** The collection, id and by-slug routes of venues or organizers (§1.1). */
export function linkedRoutes(deps: LinkedRouteDeps): RouteDef[] {
  const { service, site } = deps;
  const kind = service.kind;
  const base = `${site.rest}/${kind.route}/`;
  const plural = `${kind.label}s`;
  const existingEvent: Validator = async (v) => (typeof v === 'number' && (await deps.isEvent(v)) ? true : invalid());
  const rowOf = async (ctx: RequestContext): Promise<LinkedRow> =>
    (ctx.pathParams.id !== undefined
      ? await service.get(toRowId(ctx.pathParams.id)!)
      : await service.getBySlug(ctx.pathParams.slug!))!;
  const isKind = async (v: unknown): Promise<boolean> => typeof v === 'number' && (await service.get(v)) !== undefined;
  const idArgs = {
    schema: Type.Object({ id: RowIdType({ description: `the ${kind.kind} post ID` }) }),
    validators: { id: async (v: unknown) => ((await isKind(v)) ? true : invalid()) } as Record<string, Validator>,
  };
  const slugArgs = {
    schema: Type.Object({ slug: Type.String({ description: `the ${kind.kind} post name` }) }),
    validators: {
      slug: async (v: unknown) => (typeof v === 'string' && (await service.getBySlug(v)) ? true : invalid()),
    } as Record<string, Validator>,
  };
  const create = linkedWriteArgs(deps, true);
  const update = linkedWriteArgs(deps, false);

  const single = async (ctx: RequestContext) => {
    const row = await rowOf(ctx);
    if (!canRead(ctx.caller, row))
      throw new ApiError(`${kind.kind}-not-accessible`, `The requested ${kind.kind} is not accessible`);
    const body = await service.present(row, true);
    return {
      body: isProtected(row) && !unlocks(ctx, row) ? blankLinked(kind.kind, body) : body,
      lastModified: storedUtcMs(row.modified_gmt),
    };
  };
  const itemEndpoints = (args: typeof idArgs) => [
    endpoint<Params>({ methods: ['GET'], args, handler: single }),
    endpoint<Params>({
      methods: ['DELETE'],
      args,
      permission: async (ctx) => ctx.caller !== null && canModify(ctx.caller, await rowOf(ctx), 'delete'),
      async handler(ctx) {
        const row = await rowOf(ctx);
        if (row.status === 'trash')
          throw new ApiError(`${kind.kind}-is-in-trash`, `The ${kind.kind} is already trashed`);
        await service.trash(row, ctx.now);
        return { body: await service.present((await service.get(row.id))!, false) };
      },
    }),
    endpoint<Params>({
      methods: ['POST', 'PUT', 'PATCH'],
      args: {
        schema: Type.Object({ ...args.schema.properties, ...update.schema.properties }),
        validators: { ...update.validators, ...args.validators },
      },
      permission: async (ctx) => ctx.caller !== null && canModify(ctx.caller, await rowOf(ctx), 'edit'),
      async handler(ctx, p) {
        const row = await rowOf(ctx);
        await service.update(ctx.caller!, row.id, p, ctx.sent, ctx.now);
        return { body: await service.present((await service.get(row.id))!, false) };
      },
    }),
  ];

  type ListParams = {
    page: number;
    per_page?: number;
    search?: string;
    event?: RowId;
    has_events?: unknown;
    only_with_upcoming: boolean;
    status?: unknown;
  };
  return [
    {
      pattern: `/${kind.route}`,
      endpoints: [
        endpoint<ListParams>({
          methods: ['GET'],
          args: {
            schema: Type.Object({
              page: Type.Optional(Type.Integer({ description: 'The archive page to return', default: 1 })),
              per_page: Type.Optional(
                Type.Integer({ description: `The number of ${kind.route} to return on each page`, default: '10' }),
              ),
              search: Type.Optional(
                Type.String({
                  description: `${plural} should contain the specified string in the title, description or custom fields`,
                }),
              ),
              event: Type.Optional(RowIdType({ description: `${plural} should be related to this event` })),
              has_events: Type.Optional(
                Type.Unknown({
                  description: `${plural} should have events associated to them`,
                  ...declared({ swaggerType: 'boolean' }),
                }),
              ),
              only_with_upcoming: Type.Optional(
                Type.Boolean({
                  description: `${plural} should have upcoming events associated to them`,
                  default: false,
                  ...declared({ type: null }),
                }),
              ),
              // Sic: the plugin describes both lists' status as the organizer's.
              status: Type.Optional(
                Type.Unknown({ description: 'The organizer post status', ...declared({ format: 'string' }) }),
              ),
            }),
            validators: {
              page: positiveInt,
              per_page: positiveInt,
              search: nonEmptyString,
              event: existingEvent,
              status: listStatusValidator,
            },
          },
          async handler(ctx, p) {
            const perPage = clampPerPage(p.per_page);
            const visibility = listVisibility(ctx.caller, p.status);
            const { rows, total } = await service.list({
              visibility,
              tokens: p.search === undefined ? undefined : searchTokens(p.search),
              eventId: p.event,
              hasEvents: p.has_events === undefined ? undefined : isTruthy(p.has_events),
              upcomingFrom: p.only_with_upcoming
                ? { utc: formatWall(utcToWall(ctx.now, 'UTC')), visibility: listVisibility(ctx.caller, undefined) }
                : undefined,
              limit: perPage,
              offset: (p.page - 1) * perPage,
            });
            if (rows.length === 0 && p.page > 1) {
              throw new ApiError(
                `${kind.kind}-archive-page-not-found`,
                `The requested ${kind.kind} archive page does not exist`,
              );
            }
            const totalPages = total === 0 ? 0 : Math.ceil(total / perPage);
            const echoed: Array<[string, string]> = [
              ['page', String(p.page)],
              ['per_page', String(perPage)],
            ];
            if (p.event !== undefined) echoed.push(['event', String(p.event)]);
            if (p.has_events !== undefined) echoed.push(['has_events', String(p.has_events)]);
            echoed.push(['status', statusEcho(ctx.caller, p.status)]);
            const kept: Array<[string, string]> = [];
            if (p.search !== undefined) kept.push(['search', p.search]);
            if (p.only_with_upcoming) kept.push(['only_with_upcoming', 'true']);
            const links = pageLinks(base, { echoed, kept }, p.page, totalPages);
            return {
              body: {
                [kind.route]: (await service.presentMany(rows)).map((b, i) => shownLinked(kind.kind, rows[i]!, b)),
                ...links,
                total,
                total_pages: totalPages,
              },
              headers: { 'X-TEC-Total': total, 'X-TEC-TotalPages': totalPages },
            };
          },
        }),
        endpoint<Params>({
          methods: ['POST'],
          args: create,
          permission: (ctx) => ctx.caller?.can('edit') ?? false,
          async handler(ctx, p) {
            const id = await service.create(ctx.caller!, p, ctx.sent, ctx.now);
            return { status: 201, body: await service.present((await service.get(id))!, false) };
          },
        }),
      ],
    },
    { pattern: `/${kind.route}/(?P<id>\\d+)`, endpoints: itemEndpoints(idArgs) },
    {
      pattern: `/${kind.route}/by-slug/(?P<slug>[^/]+)`,
      endpoints: itemEndpoints(slugArgs as unknown as typeof idArgs),
    },
  ];
}
