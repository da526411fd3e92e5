import type { Caller, CompiledRoute, Endpoint, RequestContext, Reply } from './route.ts';
import { checkArgs } from './args.ts';
import { ApiError, forbidden, noRoute } from './errors.ts';
import { parseBodyParams } from './nested-params.ts';

export interface IncomingRequest {
  method: string;
  /** Route inside the REST root, e.g. `/tribe/events/v1/events/12` (no trailing slash). */
  route: string;
  query: Record<string, unknown>;
  contentType: string;
  rawBody: string;
  overrideHeader: string | undefined;
  /** The request headers (lower-case names, as Node gives them). */
  headers?: Readonly<Record<string, string | string[] | undefined>>;
  caller: Caller | null;
  now: number;
}

const RESERVED = new Set(['_method', '_envelope', '_jsonp', '_fields', 'rest_route']);

/**
 * A matched route's answer. `allow` is core's `Allow` header: the methods whose permission check passes for this
 * caller and request. Errors raised after the route matched are answers too, so they carry `Allow` as in WordPress.
 */
export interface Dispatched {
  reply: Reply;
  allow?: string;
  method: string;
}

/**
 * Request body → params: JSON only under `application/json`, form bodies as PHP parses them, anything else ignored.
 * As in WP_REST_Request: a JSON list gives params named 0, 1, … (none of them an argument), a JSON scalar none, and
 * a `null` value counts as not sent (core checks arguments with isset), so it neither fails a check nor overrides
 * a default.
 */
async function parseBody(contentType: string, raw: string): Promise<Record<string, unknown>> {
  if (raw.trim() === '') return {};
  if (contentType.includes('application/json')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      throw new ApiError('rest_invalid_json', 'Invalid JSON body passed.', {
        json_error_code: 4,
        json_error_message: 'Syntax error',
      });
    }
    if (parsed === null || typeof parsed !== 'object') return {};
    return Object.fromEntries(Object.entries(parsed).filter(([, v]) => v !== null));
  }
  if (contentType.includes('application/x-www-form-urlencoded')) return parseBodyParams(raw);
  return {};
}

/** Core's override: `?_method=` first, then `X-HTTP-Method-Override`, on any HTTP method (a GET can become a DELETE). */
export function effectiveMethod(
  method: string,
  query: Record<string, unknown>,
  overrideHeader: string | undefined,
): string {
  const override = typeof query._method === 'string' ? query._method : overrideHeader;
  return (override !== undefined && override !== '' ? override : method).toUpperCase();
}

/** `rest_send_allow_header`: every method of the route whose permission callback returns exactly true. */
async function allowFor(route: CompiledRoute, ctx: RequestContext, merged: Record<string, unknown>): Promise<string> {
  const allowed: string[] = [];
  for (const ep of route.endpoints) {
    let ok = true;
    if (ep.permission) {
      // Core hands the callbacks the request as it is; ours read only the context (caller, path).
      try {
        ok = (await ep.permission(ctx, merged as never)) === true;
      } catch {
        ok = false;
      }
    }
    if (ok) allowed.push(...ep.methods);
  }
  return allowed.join(', ');
}

/** The route matcher and core's processing order: route → required → validate → permission → handler. */
export function createDispatcher(
  routes: readonly CompiledRoute[],
  optionsReply: (route: CompiledRoute, now: number) => unknown,
) {
  return async function dispatch(req: IncomingRequest): Promise<Dispatched> {
    const method = effectiveMethod(req.method, req.query, req.overrideHeader);
    const lookup = method === 'HEAD' ? 'GET' : method;
    for (const route of routes) {
      const m = route.regex.exec(req.route);
      if (!m) continue;
      const ep: Endpoint | undefined = route.endpoints.find((e) => (e.methods as readonly string[]).includes(lookup));
      if (!ep && lookup !== 'OPTIONS') throw noRoute();
      const pathParams: Record<string, string> = { ...(m.groups ?? {}) };
      const merged: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(req.query)) if (!RESERVED.has(k)) merged[k] = v;
      const sent = new Set<string>();
      const header = (name: string) => {
        const v = req.headers?.[name];
        return Array.isArray(v) ? v.join(', ') : v;
      };
      const ctx: RequestContext = { caller: req.caller, now: req.now, pathParams, sent, query: req.query, header };
      let reply: Reply;
      try {
        if (!ep) reply = { body: optionsReply(route, req.now) };
        else {
          const body = lookup === 'GET' ? {} : await parseBody(req.contentType, req.rawBody);
          for (const [k, v] of Object.entries(body)) merged[k] = v;
          // Path params win: a body cannot redirect a write to another id.
          for (const [k, v] of Object.entries(pathParams)) merged[k] = v;
          for (const k of Object.keys(merged)) sent.add(k);
          const params = await checkArgs<never>(ep.args, merged, req.caller);
          if (ep.permission) {
            const verdict = await ep.permission(ctx, params);
            if (verdict instanceof ApiError) throw verdict;
            if (verdict !== true) throw forbidden(req.caller !== null);
          }
          reply = await ep.handler(ctx, params);
        }
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        reply = { status: err.status, body: err.toBody() };
      }
      Object.assign(merged, pathParams);
      const allow = await allowFor(route, ctx, merged);
      return { reply, method, ...(allow !== '' ? { allow } : {}) };
    }
    throw noRoute();
  };
}
