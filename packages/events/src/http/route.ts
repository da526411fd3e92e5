import type { ArgSet } from './args.ts';
import type { ApiError } from './errors.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The authenticated caller: a WordPress-style user with a role's capabilities. */
export interface Caller {
  readonly id: number;
  readonly login: string;
  readonly role: string;
  can(cap: string): boolean;
}

/** What every handler and permission check sees of the request. */
export interface RequestContext {
  readonly caller: Caller | null;
  /** The request instant from the injected clock. */
  readonly now: number;
  /** Path params of the matched route (`id`, `slug`). */
  readonly pathParams: Readonly<Record<string, string>>;
  /** Names of the parameters the client actually sent (query, form or JSON), before defaults. */
  readonly sent: ReadonlySet<string>;
  /** The raw query string parameters, for echoing filters into paging links. */
  readonly query: Readonly<Record<string, unknown>>;
  /** A request header by lower-case name (`tec/v1` reads its `X-TEC-EEA` acknowledgement). */
  header(name: string): string | undefined;
}

export interface Reply {
  status?: number;
  body: unknown;
  headers?: Record<string, string | number>;
  /** WordPress response links: joined to the data as `_links` after `_fields` filtered it (core's response_to_data). */
  links?: Record<string, unknown>;
  /**
   * false when the body comes from the service's own item cache (single events): a response-cache copy would only
   * double the memory, and with more items than response slots it would cost a store on every request.
   */
  responseCache?: false;
  /** When the item last changed (ms): sent as `Last-Modified`, which `If-Modified-Since` is compared with. */
  lastModified?: number;
}

export interface Endpoint {
  readonly methods: readonly HttpMethod[];
  readonly args: ArgSet;
  /** Runs after argument validation, as in WordPress: false → 401/403 `rest_forbidden`. */
  readonly permission?: (ctx: RequestContext, params: never) => Promise<boolean | ApiError> | boolean | ApiError;
  readonly handler: (ctx: RequestContext, params: never) => Promise<Reply> | Reply;
}

export interface RouteDef {
  /** The raw WordPress route pattern inside the namespace, e.g. `/events/(?P<id>\d+)`. */
  readonly pattern: string;
  readonly endpoints: readonly Endpoint[];
  /**
   * What the namespace index and OPTIONS print for this route when it is not derived from the endpoints' args: the
   * recorded declarations of a namespace whose printed form we copy as it is (`tec/v1`), with the route's `schema`.
   */
  readonly declaration?: { readonly endpoints: readonly unknown[]; readonly schema?: unknown };
}

export interface CompiledRoute extends RouteDef {
  readonly regex: RegExp;
  /** The namespace the route was registered in (`tribe/events/v1`, `wp/v2`; `''` for the API root `/`). */
  readonly namespace: string;
  /** The full raw route as WordPress keys it in its indexes: `/tribe/events/v1/events/(?P<id>\d+)`, `/` for the root. */
  readonly path: string;
}

/**
 * Compiles WordPress route patterns (PCRE named groups) into anchored, case-insensitive RegExps. The namespace `''`
 * holds only the API root, whose pattern is `/`.
 * @example compileRoutes('wp/v2', [{ pattern: '/users/me', endpoints }])
 */
export function compileRoutes(namespace: string, routes: readonly RouteDef[]): CompiledRoute[] {
  const prefix = namespace === '' ? '' : `/${namespace}`;
  return routes.map((r) => ({
    ...r,
    namespace,
    path: `${prefix}${r.pattern}` || '/',
    regex: new RegExp(`^${prefix}${r.pattern.replace(/\(\?P</g, '(?<')}$`, 'i'),
  }));
}

/** Typed wrapper so an endpoint's params are checked against its own declaration. */
export function endpoint<P>(def: {
  methods: readonly HttpMethod[];
  args: ArgSet;
  permission?: (ctx: RequestContext, params: P) => Promise<boolean | ApiError> | boolean | ApiError;
  handler: (ctx: RequestContext, params: P) => Promise<Reply> | Reply;
}): Endpoint {
  return def as unknown as Endpoint;
}
