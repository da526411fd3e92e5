import { Type } from '@sinclair/typebox';
import type { ArgSet } from '../http/args.ts';
import { JsonText } from '../http/json-text.ts';
import { endpoint, type RequestContext, type Reply, type RouteDef } from '../http/route.ts';
import { canModify, canRead, type OwnedPost, type PostRow, type Site } from '../post/index.ts';
import { asPositiveInt, mergeArgs, pagingArgs, phpTruthy } from './args.ts';
import { EntityFailure, experimental } from './gate.ts';
import { pagingHeaders, type LinkArgs } from './paging.ts';

// The five operations every `tec/v1` entity has (NOTES §2, §3.3, §3.4), over an adapter to our services: the
// adapters translate parameters and shapes, the services keep every business rule.

export type Params = Record<string, unknown>;

export interface EntityAdapter<Row extends OwnedPost & { id: number }> {
  readonly type: 'tribe_events' | 'tribe_venue' | 'tribe_organizer';
  readonly route: 'events' | 'venues' | 'organizers';
  readonly listArgs: ArgSet;
  /** Which list arguments the paging links write back as lists and as booleans. */
  readonly linkArgs: LinkArgs;
  readonly createArgs: ArgSet;
  readonly updateArgs: ArgSet;
  find(id: number): Promise<Row | undefined>;
  /**
   * Whether single bodies are kept by the service already (events): then the response cache does not copy them, as
   * for `tribe/events/v1` (with more items than response slots a copy would cost a store on every read).
   */
  readonly cachesItems: boolean;
  /** A page as JSON texts, one per item, and the total. */
  list(ctx: RequestContext, p: Params, page: number, perPage: number): Promise<{ texts: string[]; total: number }>;
  /** One item as JSON text. */
  present(ctx: RequestContext, row: Row): Promise<JsonText>;
  /** Returns the new id; throws EntityFailure('create') where the plugin fails without a WordPress error. */
  create(ctx: RequestContext, p: Params): Promise<number>;
  update(ctx: RequestContext, row: Row, p: Params): Promise<void>;
  trash(ctx: RequestContext, row: Row): Promise<void>;
  remove(row: Row): Promise<void>;
}

export interface EntityDeps {
  readonly site: Site;
  /** Any post by id, whatever its type (the plugin's permission checks look at the post, not at its type). */
  readonly findPost: (id: number) => Promise<PostRow | undefined>;
}

const idArgs: ArgSet = {
  schema: Type.Object({ id: Type.Optional(Type.Unknown({ description: 'Unique identifier for the entity.' })) }),
};

export function entityRoutes<Row extends OwnedPost & { id: number }>(
  deps: EntityDeps,
  a: EntityAdapter<Row>,
): RouteDef[] {
  const idOf = (ctx: RequestContext) => Number(ctx.pathParams.id);

  /**
   * The row the permission callback read, for the handler of the same request: each read checks the store's change
   * signal (a SQLite statement), and GET by id would otherwise read its row twice where `tribe/events/v1` reads once.
   */
  const readByPermission = new WeakMap<RequestContext, Row>();

  /** read: the post exists, is of this type, and the caller may read it (a trashed one only by its editors). */
  const mayRead = async (ctx: RequestContext) => {
    const id = idOf(ctx);
    if (id === 0) return true; // no such post: the handler's 404 `{"error"}`, as on the reference
    // Asked twice per GET (the permission, then the Allow header's check of every method): one read serves both.
    const row = readByPermission.get(ctx) ?? (await a.find(id));
    if (row === undefined) return false;
    readByPermission.set(ctx, row);
    if (row.status === 'trash') return canModify(ctx.caller, row, 'edit');
    return canRead(ctx.caller, row);
  };
  /** edit_post / delete_post: on whatever post has the id (another type then fails in the handler). */
  const mayModify = (action: 'edit' | 'delete') => async (ctx: RequestContext) => {
    if (!ctx.caller) return false;
    const post = await deps.findPost(idOf(ctx));
    return post !== undefined && canModify(ctx.caller, post, action);
  };

  const own = async (ctx: RequestContext, failure: 'unreadable' | 'notUpdated' | 'notDeleted'): Promise<Row> => {
    const row = await a.find(idOf(ctx));
    if (row === undefined) throw new EntityFailure(failure);
    return row;
  };
  const answer = async (ctx: RequestContext, id: number, status = 200): Promise<Reply> => {
    const row = await a.find(id);
    if (row === undefined) throw new EntityFailure('unreadable');
    return { status, body: await a.present(ctx, row) };
  };

  return [
    {
      pattern: `/${a.route}`,
      endpoints: [
        experimental(
          endpoint<Params>({
            methods: ['GET'],
            args: mergeArgs(pagingArgs(), a.listArgs),
            async handler(ctx, p) {
              const page = asPositiveInt(p.page) ?? 1;
              const perPage = asPositiveInt(p.per_page) ?? 10;
              const { texts, total } = await a.list(ctx, p, page, perPage);
              if (texts.length === 0 && page > 1) throw new EntityFailure('pageNotFound');
              return {
                body: new JsonText(`[${texts.join(',')}]`),
                headers: pagingHeaders(
                  `${deps.site.restRoot}tec/v1/${a.route}`,
                  ctx.query,
                  a.linkArgs,
                  page,
                  perPage,
                  total,
                ),
              };
            },
          }),
        ),
        experimental(
          endpoint<Params>({
            methods: ['POST'],
            args: a.createArgs,
            permission: (ctx) => ctx.caller?.can('edit') ?? false,
            async handler(ctx, p) {
              return answer(ctx, await a.create(ctx, p), 201);
            },
          }),
        ),
      ],
    },
    {
      pattern: `/${a.route}/(?P<id>\\d+)`,
      endpoints: [
        experimental(
          endpoint<Params>({
            methods: ['GET'],
            args: idArgs,
            permission: mayRead,
            async handler(ctx) {
              const row = readByPermission.get(ctx) ?? (await own(ctx, 'unreadable'));
              if (row.status === 'trash') throw new EntityFailure('unreadable');
              return { body: await a.present(ctx, row), ...(a.cachesItems ? { responseCache: false as const } : {}) };
            },
          }),
        ),
        experimental(
          endpoint<Params>({
            methods: ['PUT', 'PATCH'],
            args: mergeArgs(idArgs, a.updateArgs),
            permission: mayModify('edit'),
            async handler(ctx, p) {
              const row = await own(ctx, 'notUpdated');
              if (row.status === 'trash') throw new EntityFailure('update');
              await a.update(ctx, row, p);
              return answer(ctx, row.id);
            },
          }),
        ),
        experimental(
          endpoint<Params>({
            methods: ['DELETE'],
            args: mergeArgs(idArgs, {
              schema: Type.Object({
                force: Type.Optional(
                  Type.Unknown({ description: 'Whether to bypass the trash and force deletion.', default: false }),
                ),
              }),
            }),
            permission: mayModify('delete'),
            async handler(ctx, p) {
              const row = await own(ctx, 'notDeleted');
              // `force` is cast, not checked: `maybe` deletes for good too.
              if (phpTruthy(p.force)) await a.remove(row);
              else if (row.status === 'trash') throw new EntityFailure('trashed');
              else await a.trash(ctx, row);
              return { body: [] };
            },
          }),
        ),
      ],
    },
  ];
}
