import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type RouteHandlerMethod,
} from 'fastify';
import type { Logger } from 'pino';
import type { Caller, CompiledRoute, Reply } from './route.ts';
import { ApiError, dbUnavailable, noRoute } from './errors.ts';
import { createDispatcher, type Dispatched } from './dispatch.ts';
import { isValidJsonpCallback } from './response-shape.ts';
import { restHeaders } from './cors-headers.ts';
import { shapeAnswer, type Answer } from './reshape.ts';
import { checkInputLimits, parseQueryParams, queryError } from './nested-params.ts';
import type { LoginChecks } from './auth.ts';
import { basicAuth } from './auth.ts';
import { JsonText } from './json-text.ts';
import { clientErrorHandler, frameworkError } from './framework-errors.ts';
import { answerValidators, isConditional, isNotModified, notModifiedHeaders } from './conditional.ts';
import { ValidatorMemo } from './validator-memo.ts';
import { ResponseCache, type CachedResponse } from './response-cache.ts';
import { catchUpWith, GENERATION_HEADER, type ReadYourWrites } from './read-your-writes.ts';

export interface HttpOptions {
  readonly siteUrl: string;
  readonly bodyLimitBytes: number;
  readonly routes: readonly CompiledRoute[];
  readonly optionsReply: (route: CompiledRoute, now: number) => unknown;
  /** Basic auth: password checks and the shared attempt counter that limits guessing. */
  readonly authenticate: LoginChecks;
  readonly clock: () => number;
  readonly logger: Logger;
  /** Bumped by every committed write; cached responses from an older generation are never served. */
  readonly generation: { readonly value: number };
  /** Write tokens and catching up with them (read-your-writes across instances, http/read-your-writes.ts). */
  readonly consistency?: ReadYourWrites;
  /** Anonymous GET responses are cached this long (0 disables), like the plugin's per-user response cache. */
  readonly cacheTtlMs: number;
  /** How long remembered ETags answer matching re-polls with 304 without building the answer (0 disables). */
  readonly validatorTtlMs: number;
  /** Tells errors that mean "the database is unreachable" (answered 503 with Retry-After) from bugs (500). */
  readonly isUnavailable?: (err: unknown) => boolean;
  /** Static files outside `/wp-json` (the media library's `/wp-content/uploads`): GET and HEAD under `path`. */
  readonly files?: { readonly path: string; readonly handler: RouteHandlerMethod };
  /**
   * GET-only documents outside the namespace's routes (the iCalendar feeds): by decoded path without its trailing
   * slash (`/events`, `/wp-json/tribe/events/v1/events.ics`). They get the same caching, conditional requests and errors.
   */
  readonly pages?: (path: string) => ((query: Record<string, unknown>, now: number) => Promise<Reply>) | undefined;
}

/** How `send` treats an answer: whose it is, whether the response cache may keep it, where its validators go. */
interface SendOptions {
  readonly loggedIn: boolean;
  /** False when the route keeps the body itself (the item cache): the response cache then does not copy it. */
  readonly keep?: boolean;
  /** The validator memo key of a GET or HEAD that may be answered 304 from remembered validators later. */
  readonly memoKey?: string;
}

const REST_PREFIX = '/wp-json';
const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

/** Extracts the REST route from `/wp-json/...` or `?rest_route=/...`; WordPress strips one trailing slash. */
function restRoute(url: string, query: Record<string, unknown>): string | undefined {
  const q = url.indexOf('?');
  let path = q < 0 ? url : url.slice(0, q);
  try {
    path = decodeURIComponent(path);
  } catch {
    return undefined;
  }
  let route: string | undefined;
  if (typeof query.rest_route === 'string' && (path === '/' || path === '/index.php')) route = query.rest_route;
  else if (path.toLowerCase() === REST_PREFIX || path.toLowerCase().startsWith(`${REST_PREFIX}/`))
    route = path.slice(REST_PREFIX.length);
  if (route === undefined) return undefined;
  if (route.length > 1 && route.endsWith('/')) route = route.slice(0, -1);
  return route === '' ? '/' : route;
}

/** A path outside `/wp-json`, decoded, without its query and trailing slash (`/event/launch/` → `/event/launch`). */
function sitePath(url: string): string {
  const q = url.indexOf('?');
  let path = q < 0 ? url : url.slice(0, q);
  try {
    path = decodeURIComponent(path);
  } catch {
    return '';
  }
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

export function createHttpApp(opts: HttpOptions): FastifyInstance {
  const app = Fastify({
    loggerInstance: opts.logger as FastifyBaseLogger,
    // Reads are not logged one by one (they are the hot path); writes and errors are, below.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: opts.bodyLimitBytes,
    routerOptions: {
      caseSensitive: false,
      ignoreTrailingSlash: true,
      ignoreDuplicateSlashes: true,
      querystringParser: (s: string) => parseQueryParams(s),
    },
    frameworkErrors: (err, req, reply) => sendError(reply, req, frameworkError(err) ?? err),
    clientErrorHandler,
  });
  const dispatch = createDispatcher(opts.routes, opts.optionsReply);
  const cache = new ResponseCache({ ttlMs: opts.cacheTtlMs, clock: opts.clock, generation: opts.generation });
  const resolveCaller = basicAuth(opts.authenticate);
  const validators = new ValidatorMemo(opts.generation, opts.validatorTtlMs, opts.clock);
  // Validators are per reader (user id), CORS origin and URL; GET and HEAD share them.
  const memoKeyOf = (req: FastifyRequest, caller: Caller | null) =>
    `${caller?.id ?? 0}|${req.headers.origin ?? ''}|${req.headers['x-tec-eea'] ?? ''}|${req.url}`;
  // Requests `handle` may answer 304 before authentication; a GET with a body (refused when oversized) is checked later.
  const anonymousBodiless = (req: FastifyRequest) => req.headers.authorization === undefined && req.body === undefined;
  // A method override makes a GET a write: never answered from remembered validators, nor remembered.
  const revalidable = (req: FastifyRequest, query: Record<string, unknown>) =>
    (req.method === 'GET' || req.method === 'HEAD') &&
    req.headers['x-http-method-override'] === undefined &&
    query._method === undefined;
  const home = opts.siteUrl;
  // As long as our own response cache may keep an anonymous answer: the TTL bounds the answers that depend on the clock.
  const publicCacheControl =
    opts.cacheTtlMs >= 1000 ? `public, max-age=${Math.floor(opts.cacheTtlMs / 1000)}` : 'no-cache';

  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));

  const send = (
    reply: FastifyReply,
    req: FastifyRequest,
    answer: Answer,
    { loggedIn, keep = true, memoKey }: SendOptions,
  ) => {
    // Fastify's framework errors (a URL that does not decode) come before any query was parsed.
    const query = (req.query ?? {}) as Record<string, unknown>;
    const headers = restHeaders(home, { method: req.method, origin: req.headers.origin }, loggedIn);
    // Not added to the CORS lists, which stay WordPress's (the conformance kit compares them).
    if (answer.writeToken !== undefined) headers[GENERATION_HEADER] = answer.writeToken;
    const { status: outStatus, full, envelope, contentType } = shapeAnswer(answer, query, headers);
    const own = answer.headers ?? {};
    const method = answer.method ?? req.method;
    const head = method === 'HEAD';
    const validated = answer.status === 200 && (method === 'GET' || method === 'HEAD');
    if (validated) {
      const v = answerValidators(full, envelope ? NO_HEADERS : own, contentType, answer.lastModified);
      headers.ETag = v.etag;
      if (v.lastModified !== undefined) headers['Last-Modified'] = v.lastModified;
      if (!loggedIn) headers['Cache-Control'] = publicCacheControl;
    }
    const payload = head ? '' : full instanceof JsonText ? full.text : full;
    const notModified = validated && isNotModified(req.headers, headers.ETag as string, answer.lastModified);
    if (validated && memoKey !== undefined)
      validators.remember(memoKey, cache.startGeneration(req) ?? -1, headers, answer.lastModified);
    const kept = keep ? cache.keep(req, outStatus, headers, payload, answer.lastModified) : undefined;
    if (kept !== undefined) return replyWith(reply, req, kept);
    if (notModified) return reply.code(304).headers(notModifiedHeaders(headers)).send();
    return reply.code(outStatus).headers(headers).send(payload);
  };

  /** A cached or shared answer, or 304 when the request's validators still match it. */
  const replyWith = (reply: FastifyReply, req: FastifyRequest, r: CachedResponse) => {
    const etag = r.headers.ETag;
    if (typeof etag === 'string' && isNotModified(req.headers, etag, r.lastModified))
      return reply
        .code(304)
        .headers((r.notModified ??= notModifiedHeaders(r.headers)))
        .send();
    return reply.code(r.status).headers(r.headers).send(r.payload);
  };

  /** serve_request refuses a bad `_jsonp` name before anything else: only its first four headers, no `data`. */
  const badJsonp = (reply: FastifyReply) =>
    reply
      .code(400)
      .headers({
        'Content-Type': 'application/javascript; charset=UTF-8',
        'X-Robots-Tag': 'noindex',
        Link: `<${home}${REST_PREFIX}/>; rel="https://api.w.org/"`,
        'X-Content-Type-Options': 'nosniff',
      })
      .send(JSON.stringify({ code: 'rest_callback_invalid', message: 'Invalid JSONP callback function.' }));

  const sendError = (reply: FastifyReply, req: FastifyRequest, err: unknown, loggedIn = false) => {
    if (err instanceof ApiError)
      return send(reply, req, { status: err.status, body: err.toBody(), headers: { ...err.headers } }, { loggedIn });
    if (opts.isUnavailable?.(err)) {
      // The code and message name the failure, so an error answered as an outage only because a connection was just
      // lost (db/unavailable.ts, ConnectionLosses) still shows what it was.
      const { code, message } = err as { code?: unknown; message?: unknown };
      req.log.warn({ err: message, code, url: req.url, method: req.method }, 'database unavailable');
      const e = dbUnavailable();
      return send(reply, req, { status: e.status, body: e.toBody(), headers: { ...e.headers } }, { loggedIn });
    }
    req.log.error({ err, url: req.url, method: req.method }, 'unhandled error');
    const e = new ApiError('internal_server_error', 'There has been a critical error on this website.');
    return send(reply, req, { status: 500, body: e.toBody() }, { loggedIn });
  };

  const handle = async (req: FastifyRequest, reply: FastifyReply) => {
    const query = req.query as Record<string, unknown>;
    await catchUpWith(opts.consistency, req.headers);
    // An anonymous re-poll is decided before anything else: the memo holds only URLs that answered this reader 200, so
    // the same URL needs no query check, route or build.
    if (anonymousBodiless(req) && isConditional(req.headers) && revalidable(req, query)) {
      const unchanged = validators.notModified(memoKeyOf(req, null), req.headers);
      if (unchanged) return reply.code(304).headers(unchanged).send();
    }
    const now = opts.clock();
    const gen = opts.generation.value;
    const ready = await cache.open(req, gen, now);
    if (ready !== undefined) return replyWith(reply, req, ready);
    try {
      return await build(req, reply, query, now);
    } finally {
      cache.close(req);
    }
  };

  const build = async (req: FastifyRequest, reply: FastifyReply, query: Record<string, unknown>, now: number) => {
    const jsonp = query._jsonp;
    if (jsonp !== undefined && jsonp !== '' && (typeof jsonp !== 'string' || !isValidJsonpCallback(jsonp)))
      return badJsonp(reply);
    let caller: Caller | null = null;
    let memoKey: string | undefined;
    try {
      const badQuery = queryError(query);
      if (badQuery) throw badQuery;
      // Before authentication: an oversized form costs one scan, never a password hash.
      if (
        typeof req.body === 'string' &&
        String(req.headers['content-type']).toLowerCase().includes('application/x-www-form-urlencoded')
      )
        checkInputLimits(req.body);
      caller = await resolveCaller(req.headers.authorization, req.ip, now);
      if (revalidable(req, query)) {
        memoKey = memoKeyOf(req, caller);
        // Looked up here once the caller is known, unless `handle` already did for an anonymous request.
        const unchanged = anonymousBodiless(req) ? undefined : validators.notModified(memoKey, req.headers);
        if (unchanged) return reply.code(304).headers(unchanged).send();
      }
      const route = restRoute(req.url, query);
      const page = opts.pages?.(route !== undefined ? `${REST_PREFIX}${route}` : sitePath(req.url));
      if (page !== undefined) {
        if (req.method !== 'GET' && req.method !== 'HEAD') throw noRoute();
        const out = await page(query, now);
        return send(
          reply,
          req,
          { status: out.status ?? 200, body: out.body, headers: out.headers, lastModified: out.lastModified },
          { loggedIn: caller !== null, memoKey },
        );
      }
      if (route === undefined) throw noRoute();
      const out: Dispatched = await dispatch({
        method: req.method,
        route,
        query,
        contentType: String(req.headers['content-type'] ?? '').toLowerCase(),
        rawBody: typeof req.body === 'string' ? req.body : '',
        overrideHeader: req.headers['x-http-method-override'] as string | undefined,
        headers: req.headers,
        caller,
        now,
      });
      const status = out.reply.status ?? 200;
      let writeToken: string | undefined;
      if (out.method !== 'GET' && out.method !== 'HEAD' && out.method !== 'OPTIONS') {
        req.log.info({ method: out.method, route, status, user: caller?.login, ms: opts.clock() - now }, 'write');
        if (status < 300) writeToken = await opts.consistency?.writeToken();
      }
      const headers = { ...out.reply.headers, ...(out.allow !== undefined ? { Allow: out.allow } : {}) };
      const answer: Answer = {
        status,
        body: out.reply.body,
        headers,
        links: out.reply.links,
        method: out.method,
        lastModified: out.reply.lastModified,
        writeToken,
      };
      return send(reply, req, answer, { loggedIn: caller !== null, keep: out.reply.responseCache !== false, memoKey });
    } catch (err) {
      return sendError(reply, req, err, caller !== null);
    }
  };

  app.route({
    method: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    url: '/*',
    exposeHeadRoute: false,
    handler: handle,
  });
  app.route({
    method: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    url: '/',
    exposeHeadRoute: false,
    handler: handle,
  });
  if (opts.files)
    app.route({
      method: ['GET', 'HEAD'],
      url: `${opts.files.path}/*`,
      exposeHeadRoute: false,
      handler: opts.files.handler,
    });
  app.setNotFoundHandler((req, reply) => sendError(reply, req, noRoute()));
  // Errors Fastify raises before our handler (body too large, broken headers) still get the WordPress envelope.
  app.setErrorHandler((err: { code?: string; statusCode?: number; message: string }, req, reply) =>
    sendError(reply, req, frameworkError(err) ?? err),
  );
  return app;
}
