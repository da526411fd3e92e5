import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest, type RouteHandlerMethod } from 'fastify';
import type { Logger } from 'pino';
import type { CompiledRoute } from './route.ts';
import { ApiError, dbUnavailable, noRoute } from './errors.ts';
import { createDispatcher, allowedMethods, type Dispatched } from './dispatch.ts';
import { checkInputLimits, parseQueryParams, queryError } from './nested-params.ts';
import type { LoginChecks } from './auth.ts';
import { basicAuth } from './auth.ts';
import { JsonText } from './json-text.ts';
import { clientErrorHandler, frameworkError } from './framework-errors.ts';

export interface HttpOptions {
  readonly siteUrl: string;
  readonly bodyLimitBytes: number;
  readonly routes: readonly CompiledRoute[];
  /** Body of `GET /wp-json/`, the site-wide index. */
  readonly rootIndex: () => unknown;
  readonly optionsReply: (route: CompiledRoute) => unknown;
  /** Basic auth: password checks and the shared attempt counter that limits guessing. */
  readonly authenticate: LoginChecks;
  readonly clock: () => number;
  readonly logger: Logger;
  /** Bumped by every committed write; cached responses from an older generation are never served. */
  readonly generation: { readonly value: number };
  /** Anonymous GET responses are cached this long (0 disables), like the plugin's per-user response cache. */
  readonly cacheTtlMs: number;
  /** Tells errors that mean "the database is unreachable" (answered 503 with Retry-After) from bugs (500). */
  readonly isUnavailable?: (err: unknown) => boolean;
  /** Static files outside `/wp-json` (the media library's `/wp-content/uploads`): GET and HEAD under `path`. */
  readonly files?: { readonly path: string; readonly handler: RouteHandlerMethod };
}

interface CachedResponse { gen: number; expires: number; status: number; headers: Record<string, string | number>; payload: Buffer }
const CACHE_MAX_ENTRIES = 5000;

const REST_PREFIX = '/wp-json';
const NO_CACHE = {
  'Cache-Control': 'no-cache, must-revalidate, max-age=0, no-store, private',
  Expires: 'Wed, 11 Jan 1984 05:00:00 GMT',
};

/** Extracts the REST route from `/wp-json/...` or `?rest_route=/...`; WordPress strips one trailing slash. */
function restRoute(url: string, query: Record<string, unknown>): string | undefined {
  const q = url.indexOf('?');
  let path = q < 0 ? url : url.slice(0, q);
  try { path = decodeURIComponent(path); } catch { return undefined; }
  let route: string | undefined;
  if (typeof query.rest_route === 'string' && (path === '/' || path === '/index.php')) route = query.rest_route;
  else if (path.toLowerCase() === REST_PREFIX || path.toLowerCase().startsWith(`${REST_PREFIX}/`)) route = path.slice(REST_PREFIX.length);
  if (route === undefined) return undefined;
  if (route.length > 1 && route.endsWith('/')) route = route.slice(0, -1);
  return route === '' ? '/' : route;
}

/** `_fields=a,b.c`: keeps only the named top-level keys (and dotted sub-keys), for objects and lists of objects. */
function filterFields(body: unknown, fields: string): unknown {
  const wanted = fields.split(',').map((f) => f.trim()).filter(Boolean);
  const pick = (obj: unknown): unknown => {
    if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) return obj;
    const out: Record<string, unknown> = {};
    for (const f of wanted) {
      const [head, ...rest] = f.split('.');
      const value = (obj as Record<string, unknown>)[head!];
      if (value === undefined) continue;
      if (rest.length === 0) out[head!] = value;
      else if (value !== null && typeof value === 'object') {
        const inner = filterFields(value, rest.join('.')) as Record<string, unknown>;
        out[head!] = { ...((out[head!] as object | undefined) ?? {}), ...inner };
      }
    }
    return out;
  };
  return Array.isArray(body) ? body.map(pick) : pick(body);
}

export function createHttpApp(opts: HttpOptions): FastifyInstance {
  const app = Fastify({
    loggerInstance: opts.logger as FastifyBaseLogger,
    // Reads are not logged one by one (they are the hot path); writes and errors are, below.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: opts.bodyLimitBytes,
    routerOptions: { caseSensitive: false, ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, querystringParser: (s: string) => parseQueryParams(s) },
    frameworkErrors: (err, req, reply) => sendError(reply, req, frameworkError(err) ?? err),
    clientErrorHandler,
  });
  const dispatch = createDispatcher(opts.routes, opts.optionsReply);
  const cache = new Map<string, CachedResponse>();
  // Builds under way per cache key: identical anonymous GETs arriving meanwhile wait for that one instead of all
  // building the same response when an entry expires under load.
  const inflight = new Map<string, { gen: number; done: Promise<CachedResponse | undefined> }>();
  // The write generation each request started under, and how to hand its response to the requests waiting on it.
  const startGen = new WeakMap<FastifyRequest, number>();
  const settlers = new WeakMap<FastifyRequest, (r: CachedResponse | undefined) => void>();
  // Only anonymous reads are shared; the key holds the whole URL (filters, _fields…) and the CORS origin.
  const cacheKeyOf = (req: FastifyRequest): string | undefined =>
    req.headers.authorization === undefined ? `${req.headers.origin ?? ''}|${req.url}` : undefined;
  const resolveCaller = basicAuth(opts.authenticate);
  const home = opts.siteUrl;

  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));

  const send = (reply: FastifyReply, req: FastifyRequest, status: number, body: unknown, extra: Record<string, string | number> = {}, keep = true) => {
    // Fastify's framework errors (a URL that does not decode) come before any query was parsed.
    const query = (req.query ?? {}) as Record<string, unknown>;
    const headers: Record<string, string | number> = {
      'X-Robots-Tag': 'noindex',
      'X-Content-Type-Options': 'nosniff',
      Link: `<${home}${REST_PREFIX}/>; rel="https://api.w.org/"`,
      'Access-Control-Expose-Headers': 'X-WP-Total, X-WP-TotalPages, Link',
      'Access-Control-Allow-Headers': 'Authorization, X-WP-Nonce, Content-Disposition, Content-MD5, Content-Type',
      ...extra,
    };
    const origin = req.headers.origin;
    if (origin) {
      Object.assign(headers, {
        'Access-Control-Allow-Origin': origin,
        'Access-Control-Allow-Methods': 'OPTIONS, GET, POST, PUT, PATCH, DELETE',
        'Access-Control-Allow-Credentials': 'true',
        Vary: 'Origin',
      });
    }
    let outStatus = status;
    const jsonp = query._jsonp;
    const reshaped = (typeof query._fields === 'string' && status < 400) || query._envelope !== undefined || typeof jsonp === 'string';
    let outBody = body instanceof JsonText && reshaped ? body.value() : body;
    if (typeof query._fields === 'string' && status < 400) outBody = filterFields(outBody, query._fields);
    if (query._envelope !== undefined) {
      outBody = { body: outBody, status, headers };
      outStatus = 200;
    }
    let payload: string;
    if (typeof jsonp === 'string' && /^[\w.]+$/.test(jsonp)) {
      headers['Content-Type'] = 'application/javascript; charset=UTF-8';
      payload = `/**/${jsonp}(${JSON.stringify(outBody)})`;
    } else {
      headers['Content-Type'] = 'application/json; charset=UTF-8';
      payload = req.method === 'HEAD' ? '' : outBody instanceof JsonText ? outBody.text : JSON.stringify(outBody);
    }
    if (keep && outStatus === 200 && req.method === 'GET' && cacheKeyOf(req) !== undefined && opts.cacheTtlMs > 0) {
      // Encoded once: a hit then costs a map lookup and a socket write.
      const bytes = Buffer.from(payload);
      const gen = startGen.get(req) ?? opts.generation.value;
      const entry: CachedResponse = { gen, expires: opts.clock() + opts.cacheTtlMs, status: outStatus, headers, payload: bytes };
      // A response read before a write that committed meanwhile may not show it: it is not kept.
      if (gen === opts.generation.value) {
        if (cache.size >= CACHE_MAX_ENTRIES) cache.delete(cache.keys().next().value!);
        cache.set(cacheKeyOf(req)!, entry);
      }
      settlers.get(req)?.(entry);
      return reply.code(outStatus).headers(headers).send(bytes);
    }
    return reply.code(outStatus).headers(headers).send(payload);
  };

  const sendError = (reply: FastifyReply, req: FastifyRequest, err: unknown) => {
    if (err instanceof ApiError) return send(reply, req, err.status, err.toBody(), { ...err.headers });
    if (opts.isUnavailable?.(err)) {
      req.log.warn({ err: (err as Error).message, url: req.url, method: req.method }, 'database unavailable');
      const e = dbUnavailable();
      return send(reply, req, e.status, e.toBody(), { ...e.headers });
    }
    req.log.error({ err, url: req.url, method: req.method }, 'unhandled error');
    const e = new ApiError('internal_server_error', 'There has been a critical error on this website.');
    return send(reply, req, 500, e.toBody());
  };

  const handle = async (req: FastifyRequest, reply: FastifyReply) => {
    const query = req.query as Record<string, unknown>;
    const now = opts.clock();
    const gen = opts.generation.value;
    const key = req.method === 'GET' && opts.cacheTtlMs > 0 ? cacheKeyOf(req) : undefined;
    let ours: { gen: number; done: Promise<CachedResponse | undefined> } | undefined;
    if (key !== undefined) {
      startGen.set(req, gen);
      const hit = cache.get(key);
      if (hit && hit.gen === gen && hit.expires > now) return reply.code(hit.status).headers(hit.headers).send(hit.payload);
      const running = inflight.get(key);
      // Only a build that started after the last write may answer: it cannot miss a write this request follows.
      const shared = running && running.gen === gen ? await running.done : undefined;
      if (shared) return reply.code(shared.status).headers(shared.headers).send(shared.payload);
      if (!running) {
        let settle!: (r: CachedResponse | undefined) => void;
        ours = { gen, done: new Promise((r) => { settle = r; }) };
        inflight.set(key, ours);
        settlers.set(req, settle);
      }
    }
    try {
      return await build(req, reply, query, now);
    } finally {
      if (ours) {
        // Errors and uncacheable answers release the waiters, which then build their own response.
        settlers.get(req)?.(undefined);
        if (inflight.get(key!) === ours) inflight.delete(key!);
      }
    }
  };

  const build = async (req: FastifyRequest, reply: FastifyReply, query: Record<string, unknown>, now: number) => {
    try {
      const badQuery = queryError(query);
      if (badQuery) throw badQuery;
      // Before authentication: an oversized form costs one scan, never a password hash.
      if (typeof req.body === 'string' && String(req.headers['content-type']).toLowerCase().includes('application/x-www-form-urlencoded')) checkInputLimits(req.body);
      const caller = await resolveCaller(req.headers.authorization, req.ip, now);
      const route = restRoute(req.url, query);
      if (route === undefined) throw noRoute();
      const extra: Record<string, string | number> = caller ? { ...NO_CACHE } : {};
      if (route === '/') {
        if (req.method !== 'GET' && req.method !== 'HEAD') throw noRoute();
        return send(reply, req, 200, opts.rootIndex(), extra);
      }
      const out: Dispatched = await dispatch({
        method: req.method, route, query,
        contentType: String(req.headers['content-type'] ?? '').toLowerCase(),
        rawBody: typeof req.body === 'string' ? req.body : '',
        overrideHeader: req.headers['x-http-method-override'] as string | undefined,
        caller, now,
      });
      if (out.route) extra.Allow = allowedMethods(out.route);
      if (req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'OPTIONS') {
        req.log.info({ method: req.method, route, status: out.reply.status ?? 200, user: caller?.login, ms: opts.clock() - now }, 'write');
      }
      return send(reply, req, out.reply.status ?? 200, out.reply.body, { ...extra, ...out.reply.headers }, out.reply.responseCache !== false);
    } catch (err) {
      return sendError(reply, req, err);
    }
  };

  app.route({ method: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'], url: '/*', exposeHeadRoute: false, handler: handle });
  app.route({ method: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'], url: '/', exposeHeadRoute: false, handler: handle });
  if (opts.files) app.route({ method: ['GET', 'HEAD'], url: `${opts.files.path}/*`, exposeHeadRoute: false, handler: opts.files.handler });
  app.setNotFoundHandler((req, reply) => sendError(reply, req, noRoute()));
  // Errors Fastify raises before our handler (body too large, broken headers) still get the WordPress envelope.
  app.setErrorHandler((err: { code?: string; statusCode?: number; message: string }, req, reply) => sendError(reply, req, frameworkError(err) ?? err));
  return app;
}
