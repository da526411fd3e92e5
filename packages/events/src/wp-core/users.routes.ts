import { Type } from '@sinclair/typebox';
import { ApiError, type ErrorCode } from '../http/errors.ts';
import { pageUrl, RAW_LINK_ARGS } from '../http/page-url.ts';
import { RowIdType } from '../http/row-id.ts';
import { isFieldIncluded } from '../http/response-shape.ts';
import { endpoint, type Caller, type RequestContext, type RouteDef } from '../http/route.ts';
import type { Site } from '../post/index.ts';
import type { UserRow } from '../user/index.ts';
import { contextArg, enumValidator, integerRange, type Context } from './context-arg.ts';
import { userBody, userLinks } from './user.format.ts';
import { queryUsers, USER_ORDERBY, type UserOrderBy } from './users-query.ts';

export interface UsersDeps {
  readonly site: Site;
  readonly findUser: (id: number) => Promise<UserRow | undefined>;
  /** Every user, for the list (users-query.ts says why in memory). */
  readonly listUsers: () => Promise<UserRow[]>;
  /** The users with published posts: the only ones shown to callers without `list_users`. */
  readonly withPublishedPosts: () => Promise<ReadonlySet<number>>;
}

interface ListParams {
  context: Context;
  page: number;
  per_page: number;
  search?: string;
  exclude: number[];
  include: number[];
  offset?: number;
  order: 'asc' | 'desc';
  orderby: UserOrderBy;
  slug?: string[];
  roles?: string[];
  capabilities?: string[];
  who?: 'authors';
}

const MAX_PER_PAGE = 100;

/** Core's `rest_authorization_required_code()`: 401 to anonymous callers, 403 to the logged-in. */
const refused = (ctx: RequestContext, code: ErrorCode, message: string) =>
  new ApiError(code, message, {}, ctx.caller === null ? 401 : 403);

const canList = (caller: Caller | null) => caller?.can('list_users') ?? false;
const IntList = (description: string) => Type.Optional(Type.Array(Type.Integer(), { description, default: [] }));
const StringList = (description: string) => Type.Optional(Type.Array(Type.String(), { description }));

/** One user as core answers it: the body for the context and, unless `_fields` leaves them out, its links. */
function present(ctx: RequestContext, site: Site, user: UserRow, context: Context) {
  const links = isFieldIncluded('_links', ctx.query._fields) ? userLinks(user, site, ctx.caller) : undefined;
  return { body: userBody(user, context, site), links };
}

/**
 * GET `/wp/v2/users` and `/wp/v2/users/<id>` as WP_REST_Users_Controller answers them (README, "WordPress core
 * routes"): callers without `list_users` see only users with published posts, in view or embed context.
 */
export function usersRoutes(deps: UsersDeps): RouteDef[] {
  const context = contextArg(['view', 'embed', 'edit']);
  const findById = async (id: number) => (id > 0 ? deps.findUser(id) : undefined);
  const list = endpoint<ListParams>({
    methods: ['GET'],
    args: {
      schema: Type.Object({
        context: context.schema,
        page: Type.Optional(Type.Integer({ description: 'Current page of the collection.', default: 1 })),
        per_page: Type.Optional(
          Type.Integer({ description: 'Maximum number of items to be returned in result set.', default: 10 }),
        ),
        search: Type.Optional(Type.String({ description: 'Limit results to those matching a string.' })),
        exclude: IntList('Ensure result set excludes specific IDs.'),
        include: IntList('Limit result set to specific IDs.'),
        offset: Type.Optional(Type.Integer({ description: 'Offset the result set by a specific number of items.' })),
        order: Type.Optional(
          Type.String({
            description: 'Order sort attribute ascending or descending.',
            enum: ['asc', 'desc'],
            default: 'asc',
          }),
        ),
        orderby: Type.Optional(
          Type.String({ description: 'Sort collection by user attribute.', enum: [...USER_ORDERBY], default: 'name' }),
        ),
        slug: StringList('Limit result set to users with one or more specific slugs.'),
        roles: StringList(
          'Limit result set to users matching at least one specific role provided. Accepts csv list or single role.',
        ),
        capabilities: StringList(
          'Limit result set to users matching at least one specific capability provided. Accepts csv list or single capability.',
        ),
        who: Type.Optional(
          Type.String({ description: 'Limit result set to users who are considered authors.', enum: ['authors'] }),
        ),
      }),
      validators: {
        context: context.validator,
        page: integerRange(1),
        per_page: integerRange(1, MAX_PER_PAGE),
        order: enumValidator(['asc', 'desc']),
        orderby: enumValidator(USER_ORDERBY),
        who: enumValidator(['authors']),
      },
    },
    // get_items_permissions_check, in its order.
    permission: (ctx, p) => {
      const lists = canList(ctx.caller);
      if ((p.roles?.length ?? 0) > 0 && !lists)
        return refused(ctx, 'rest_user_cannot_view', 'Sorry, you are not allowed to filter users by role.');
      if ((p.capabilities?.length ?? 0) > 0 && !lists)
        return refused(ctx, 'rest_user_cannot_view', 'Sorry, you are not allowed to filter users by capability.');
      if (p.context === 'edit' && !lists)
        return refused(ctx, 'rest_forbidden_context', 'Sorry, you are not allowed to list users.');
      if ((p.orderby === 'email' || p.orderby === 'registered_date') && !lists)
        return refused(ctx, 'rest_forbidden_orderby', 'Sorry, you are not allowed to order users by this parameter.');
      // Every post type here supports authors: whoever may edit posts may ask for the authors.
      if (p.who === 'authors' && !(ctx.caller?.can('edit') ?? false))
        return refused(ctx, 'rest_forbidden_who', 'Sorry, you are not allowed to query users by this parameter.');
      return true;
    },
    handler: async (ctx, p) => {
      const lists = canList(ctx.caller);
      const authorsOnly = p.who === 'authors';
      const offset = p.offset !== undefined && p.offset !== 0 ? p.offset : (p.page - 1) * p.per_page;
      const { items, total } = queryUsers(await deps.listUsers(), {
        search: p.search === undefined || p.search === '' ? undefined : `*${p.search}*`,
        listUsers: lists,
        include: p.include,
        exclude: p.exclude,
        slugs: p.slug,
        roles: p.roles,
        capabilities: p.capabilities,
        authorsOnly,
        publishedAuthors: authorsOnly || lists ? undefined : await deps.withPublishedPosts(),
        orderby: p.orderby,
        order: p.order,
        offset: Math.max(0, offset),
        perPage: p.per_page,
      });
      const body = items.map((u) => {
        const one = present(ctx, deps.site, u, p.context);
        return one.links === undefined ? one.body : { ...one.body, _links: one.links };
      });
      return { body, headers: pagingHeaders(deps.site, ctx.query, offset, p.per_page, total) };
    },
  });
  const single = endpoint<{ id: number; context: Context }>({
    methods: ['GET'],
    args: {
      schema: Type.Object({
        // A row id: digits past the stored range clamp to an id no user has (404), as PHP's (int) does.
        id: Type.Optional(RowIdType({ description: 'Unique identifier for the user.' })),
        context: context.schema,
      }),
      validators: { context: context.validator },
    },
    // get_item_permissions_check: the user must exist; others see it only if it has published posts.
    permission: async (ctx, p) => {
      const user = await findById(p.id);
      if (user === undefined) return invalidId();
      if (ctx.caller?.id === user.id) return true;
      if (p.context === 'edit' && !canList(ctx.caller))
        return refused(ctx, 'rest_user_cannot_view', 'Sorry, you are not allowed to list users.');
      if (!canList(ctx.caller) && !(await deps.withPublishedPosts()).has(user.id))
        return refused(ctx, 'rest_user_cannot_view', 'Sorry, you are not allowed to list users.');
      return true;
    },
    handler: async (ctx, p) => {
      const user = await findById(p.id);
      if (user === undefined) throw invalidId();
      const { body, links } = present(ctx, deps.site, user, p.context);
      return { body, ...(links ? { links } : {}) };
    },
  });
  return [
    { pattern: '/users', endpoints: [list] },
    { pattern: '/users/(?P<id>[\\d]+)', endpoints: [single] },
  ];
}

const invalidId = () => new ApiError('rest_user_invalid_id', 'Invalid user ID.');

/**
 * `X-WP-Total`, `X-WP-TotalPages` and the `Link` header as the users controller sets them: the page is derived from
 * the offset, `prev` (capped at the last page) before `next`.
 */
function pagingHeaders(
  site: Site,
  query: Readonly<Record<string, unknown>>,
  offset: number,
  perPage: number,
  total: number,
): Record<string, string | number> {
  const page = Math.ceil(offset / perPage + 1);
  const maxPages = Math.ceil(total / perPage);
  const base = `${site.restRoot}wp/v2/users`;
  const links: string[] = [];
  if (page > 1) links.push(`<${pageUrl(base, query, RAW_LINK_ARGS, Math.min(page - 1, maxPages))}>; rel="prev"`);
  if (maxPages > page) links.push(`<${pageUrl(base, query, RAW_LINK_ARGS, page + 1)}>; rel="next"`);
  return { 'X-WP-Total': total, 'X-WP-TotalPages': maxPages, ...(links.length > 0 ? { Link: links.join(', ') } : {}) };
}
