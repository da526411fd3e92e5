import { Type } from '@sinclair/typebox';
import type { Taxonomy } from '../db/index.ts';
import { endpoint, type RequestContext, type RouteDef } from '../http/route.ts';
import { declared, invalid, type Validator } from '../http/args.ts';
import { isIdText, RowIdType, toRowId, type RowId } from '../http/row-id.ts';
import { ApiError, invalidParam } from '../http/errors.ts';
import { nonEmptyString, positiveInt, clampPerPage, writeFilters, type Site } from '../post/index.ts';
import { formatTerm, TAXONOMY_ROUTE, type TermTree } from './term.format.ts';
import type { TermWithCount } from './term.repository.ts';
import type { TermService } from './term.service.ts';

export interface TermRouteDeps {
  readonly terms: TermService;
  readonly site: Site;
  readonly isEvent: (id: number) => Promise<boolean>;
}

// The plugin declares id lists with `items` only (no `type`); the declaration is printed, the check is ours.
const IntList = (description: string) =>
  Type.Optional(Type.Array(RowIdType(), { description, ...declared({ type: null }) }));

/** Routes for one taxonomy: `/categories` (hierarchical) or `/tags`. */
export function termRoutes(taxonomy: Taxonomy, deps: TermRouteDeps): RouteDef[] {
  const { terms, site } = deps;
  const base = TAXONOMY_ROUTE[taxonomy];
  const hierarchical = taxonomy === 'tribe_events_cat';
  const noun = hierarchical ? 'event category' : 'event tag';
  const existingTerm: Validator = async (v) =>
    typeof v === 'number' && (await terms.exists(taxonomy, v)) ? true : invalid();
  const existingTerms: Validator = async (v) => {
    for (const id of v as number[]) if (!(await terms.exists(taxonomy, id))) return invalid();
    return true;
  };
  const existingEvent: Validator = async (v) => (typeof v === 'number' && (await deps.isEvent(v)) ? true : invalid());
  const parentRef: Validator = async (v) => {
    if (!hierarchical) return true;
    const s = String(v ?? '').trim();
    if (isIdText(s)) return (await terms.exists(taxonomy, toRowId(s)!)) ? true : invalid();
    return s !== '' && (await terms.findRef(taxonomy, s)) ? true : invalid();
  };
  // Categories are managed by whoever may publish events, tags by category managers (admin and editor), §3.2.
  const manageCap = hierarchical ? 'publish' : 'manage_categories';
  const canManage = (ctx: RequestContext) => (ctx.caller?.can('edit') ?? false) && ctx.caller!.can(manageCap);
  /** One term as a single answer: with its `_links` unless it was just deleted (`tree` from before the delete). */
  const single = async (ctx: RequestContext, t: TermWithCount, tree?: TermTree) =>
    formatTerm(site, t, {
      tree: tree ?? (await terms.tree(taxonomy)),
      links: tree ? undefined : { canWrite: canManage(ctx) },
    });

  const listArgs = Type.Object({
    page: Type.Optional(Type.Integer({ description: 'The archive page to return', default: 1 })),
    per_page: Type.Optional(
      Type.Integer({ description: `The number of ${noun.replace(/y$/, 'ie')}s to return on each page`, default: '10' }),
    ),
    search: Type.Optional(Type.String({ description: 'Limit results to those matching a string' })),
    exclude: IntList('Ensure result set exclude specific IDs'),
    include: IntList('Limit result set to specific IDs'),
    // Defaults applied here; the plugin declares none for order/orderby and `"1"` for hide_empty.
    order: Type.Optional(
      Type.String({
        description: 'Order sort attribute ascending or descending',
        default: 'asc',
        ...declared({ default: undefined }),
      }),
    ),
    orderby: Type.Optional(
      Type.String({
        description: 'Sort collection by term attribute',
        default: 'name',
        ...declared({ default: undefined }),
      }),
    ),
    hide_empty: Type.Optional(
      Type.Boolean({
        description: 'Whether to hide terms not assigned to any posts',
        default: true,
        ...declared({ default: '1' }),
      }),
    ),
    ...(hierarchical
      ? { parent: Type.Optional(RowIdType({ description: 'Limit result set to terms assigned to a specific parent' })) }
      : {}),
    post: Type.Optional(RowIdType({ description: 'Limit result set to terms assigned to a specific post' })),
    event: Type.Optional(
      RowIdType({
        description: 'Limit result set to terms assigned to a specific event (an alias of the "post" parameter)',
      }),
    ),
    slug: Type.Optional(Type.String({ description: 'Limit result set to terms with a specific slug' })),
  });
  type ListParams = {
    page: number;
    per_page?: number;
    search?: string;
    exclude?: RowId[];
    include?: RowId[];
    order: string;
    orderby: string;
    hide_empty: boolean;
    parent?: RowId;
    post?: RowId;
    event?: RowId;
    slug?: string;
  };

  const writeFields = {
    name: Type.String({ description: `The ${noun} name` }),
    description: Type.Optional(Type.String({ description: `The ${noun} description` })),
    slug: Type.Optional(Type.String({ description: `The ${noun} slug` })),
    // Sic: the plugin describes `parent` as the slug; it also takes a parent's slug here.
    ...(hierarchical
      ? { parent: Type.Optional(Type.Unknown({ description: `The ${noun} slug`, ...declared({ type: 'integer' }) })) }
      : {}),
  };
  const writeValidators = {
    name: nonEmptyString,
    description: nonEmptyString,
    slug: nonEmptyString,
    parent: parentRef,
  };
  type WriteParams = { id?: RowId; name?: string; description?: string; slug?: string; parent?: unknown };
  const idArg = { id: RowIdType({ description: `the ${noun} term ID` }) };

  /** Name and description through `wp_filter_kses` unless the caller has `unfiltered_html`, as `pre_term_*` do. */
  const filteredText = (ctx: RequestContext, p: WriteParams): Pick<WriteParams, 'name' | 'description'> => {
    const kses = writeFilters(ctx.caller!);
    const name = p.name === undefined ? undefined : kses.data(p.name);
    // A name that was only markup is empty now: WordPress's empty_term_name (a 500 there, a 400 here).
    if (name !== undefined && name.trim() === '') throw invalidParam('name', 'A name is required for this term.');
    return { name, description: p.description === undefined ? undefined : kses.data(p.description) };
  };
  const resolveParent = async (p: WriteParams, ctx: RequestContext): Promise<number | undefined> => {
    if (!hierarchical) {
      if (ctx.sent.has('parent'))
        throw new ApiError('rest_taxonomy_not_hierarchical', 'Cannot set parent term, taxonomy is not hierarchical.');
      return undefined;
    }
    if (p.parent === undefined) return undefined;
    const s = String(p.parent).trim();
    return isIdText(s) ? toRowId(s)! : (await terms.findRef(taxonomy, s))!.id;
  };

  const collection = `${site.rest}/${base}/`;
  return [
    {
      pattern: `/${base}`,
      endpoints: [
        endpoint<ListParams>({
          methods: ['GET'],
          args: {
            schema: listArgs,
            validators: {
              page: positiveInt,
              per_page: positiveInt,
              search: nonEmptyString,
              exclude: existingTerms,
              include: existingTerms,
              order: nonEmptyString,
              orderby: nonEmptyString,
              parent: existingTerm,
              post: existingEvent,
              event: existingEvent,
              slug: nonEmptyString,
            },
          },
          async handler(_ctx, p) {
            const perPage = clampPerPage(p.per_page);
            const { items, total } = await terms.list(taxonomy, {
              page: p.page,
              perPage,
              search: p.search,
              include: p.include,
              exclude: p.exclude,
              order: p.order.toLowerCase() === 'asc' ? 'asc' : 'desc',
              orderby: p.orderby.toLowerCase(),
              hideEmpty: p.hide_empty,
              parent: p.parent,
              eventId: p.event ?? p.post,
              slug: p.slug,
            });
            const totalPages = total === 0 ? 0 : Math.ceil(total / perPage);
            const tree = await terms.tree(taxonomy);
            const body: Record<string, unknown> = {
              rest_url: collection,
              total,
              total_pages: totalPages,
              [base]: items.map((t) => formatTerm(site, t, { tree })),
            };
            if (p.page < totalPages) body.next_rest_url = `${collection}?page=${p.page + 1}`;
            if (p.page > 1 && totalPages > 0)
              body.previous_rest_url = p.page === 2 ? collection : `${collection}?page=${p.page - 1}`;
            return { body, headers: { 'X-TEC-Total': total, 'X-TEC-TotalPages': totalPages } };
          },
        }),
        endpoint<WriteParams & { name: string }>({
          methods: ['POST'],
          args: { schema: Type.Object(writeFields), validators: writeValidators },
          permission: canManage,
          async handler(ctx, p) {
            const parent = await resolveParent(p, ctx);
            const { name, description } = filteredText(ctx, p);
            const t = await terms.create(taxonomy, { name: name!, description, slug: p.slug, parent });
            const wpBase = hierarchical ? 'tribe_events_cat' : 'tags';
            return {
              status: 201,
              body: await single(ctx, t),
              headers: { Location: `${site.restRoot}wp/v2/${wpBase}/${t.id}` },
            };
          },
        }),
      ],
    },
    {
      pattern: `/${base}/(?P<id>\\d+)`,
      endpoints: [
        endpoint<{ id: RowId }>({
          methods: ['GET'],
          args: { schema: Type.Object(idArg), validators: { id: existingTerm } },
          handler: async (ctx, p) => ({ body: await single(ctx, (await terms.get(taxonomy, p.id))!) }),
        }),
        endpoint<WriteParams & { id: RowId }>({
          methods: ['POST', 'PUT', 'PATCH'],
          args: {
            schema: Type.Object({ ...idArg, ...Type.Partial(Type.Object(writeFields)).properties }),
            validators: { ...writeValidators, id: existingTerm },
          },
          permission: canManage,
          async handler(ctx, p) {
            const parent = await resolveParent(p, ctx);
            const t = await terms.update(taxonomy, p.id, { ...filteredText(ctx, p), slug: p.slug, parent });
            return { body: await single(ctx, t) };
          },
        }),
        endpoint<{ id: RowId }>({
          methods: ['DELETE'],
          args: { schema: Type.Object(idArg), validators: { id: existingTerm } },
          permission: canManage,
          async handler(ctx, p) {
            const tree = await terms.tree(taxonomy);
            return { body: await single(ctx, await terms.remove(taxonomy, p.id), tree) };
          },
        }),
      ],
    },
  ];
}
