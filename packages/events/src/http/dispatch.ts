import type { Caller, CompiledRoute, Endpoint, HttpMethod, RequestContext, Reply } from './route.ts';
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
  caller: Caller | null;
  now: number;
}

const METHODS: ReadonlySet<string> = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
const RESERVED = new Set(['_method', '_envelope', '_jsonp', '_fields', 'rest_route']);

export interface Dispatched { reply: Reply; route?: CompiledRoute }

/** Request body → params: JSON only under `application/json`, form bodies as PHP parses them, anything else ignored. */
async function parseBody(contentType: string, raw: string): Promise<Record<string, unknown>> {
  if (raw.trim() === '') return {};
  if (contentType.includes('application/json')) {
    let parsed: unknown;
    try { parsed = JSON.parse(raw); } catch { throw new ApiError('rest_invalid_json', 'Invalid JSON body passed.', { json_error_code: 4, json_error_message: 'Syntax error' }); }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw new ApiError('rest_invalid_json', 'Invalid JSON body passed.');
    }
    return parsed as Record<string, unknown>;
  }
  if (contentType.includes('application/x-www-form-urlencoded')) return parseBodyParams(raw);
  return {};
}

/** The route matcher and core's processing order: route → required → validate → permission → handler. */
export function createDispatcher(routes: readonly CompiledRoute[], optionsReply: (route: CompiledRoute) => unknown) {
  return async function dispatch(req: IncomingRequest): Promise<Dispatched> {
    let method = req.method.toUpperCase();
    if (method === 'POST') {
      const override = (typeof req.query._method === 'string' ? req.query._method : req.overrideHeader)?.toUpperCase();
      if (override && METHODS.has(override)) method = override;
    }
    const lookup = method === 'HEAD' ? 'GET' : method;
    for (const route of routes) {
      const m = route.regex.exec(req.route);
      if (!m) continue;
      if (lookup === 'OPTIONS') return { reply: { body: optionsReply(route) }, route };
      const ep: Endpoint | undefined = route.endpoints.find((e) => (e.methods as readonly string[]).includes(lookup));
      if (!ep) throw noRoute();
      const pathParams: Record<string, string> = { ...(m.groups ?? {}) };
      const body = lookup === 'GET' ? {} : await parseBody(req.contentType, req.rawBody);
      const merged: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(req.query)) if (!RESERVED.has(k)) merged[k] = v;
      for (const [k, v] of Object.entries(body)) merged[k] = v;
      // Path params win: a body cannot redirect a write to another id.
      for (const [k, v] of Object.entries(pathParams)) merged[k] = v;
      const sent = new Set(Object.keys(merged));
      const ctx: RequestContext = { caller: req.caller, now: req.now, pathParams, sent, query: req.query };
      const params = await checkArgs<never>(ep.args, merged, req.caller);
      if (ep.permission) {
        const verdict = await ep.permission(ctx, params);
        if (verdict instanceof ApiError) throw verdict;
        if (verdict !== true) throw forbidden(req.caller !== null);
      }
      return { reply: await ep.handler(ctx, params), route };
    }
    throw noRoute();
  };
}

export function allowedMethods(route: CompiledRoute): string {
  return route.endpoints.flatMap((e) => e.methods as readonly HttpMethod[]).join(', ');
}
