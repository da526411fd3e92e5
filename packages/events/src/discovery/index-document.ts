import type { TSchema } from '@sinclair/typebox';
import { isRequired } from '../http/args.ts';
import type { CompiledRoute, Endpoint } from '../http/route.ts';
import { NAMESPACE, type Site } from '../post/index.ts';
import { offsetMinutes } from '../time/index.ts';

/** Public view of one argument, as core's index prints it: no validators or private keys. */
function describeArg(schema: TSchema): Record<string, unknown> {
  const out: Record<string, unknown> = { required: isRequired(schema) };
  if (schema.default !== undefined) out.default = schema.default;
  if (schema.description !== undefined) out.description = schema.description;
  if (typeof schema.type === 'string') out.type = schema.type;
  const items = schema.items as TSchema | undefined;
  if (items && typeof items.type === 'string') out.items = { type: items.type };
  if (Array.isArray(schema.enum)) out.enum = schema.enum;
  return out;
}

function describeEndpoint(e: Endpoint, pattern: string): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  const pathParams = [...pattern.matchAll(/\(\?P<(\w+)>/g)].map((m) => m[1]);
  for (const [name, schema] of Object.entries(e.args.schema.properties as Record<string, TSchema>)) {
    if (!pathParams.includes(name)) args[name] = describeArg(schema);
  }
  for (const name of pathParams) {
    const schema = (e.args.schema.properties as Record<string, TSchema>)[name!];
    if (schema) args[name!] = describeArg(schema);
  }
  return { methods: [...e.methods], args };
}

/** One entry of the namespace index, also the body of OPTIONS on the route. */
export function describeRoute(site: Site, route: CompiledRoute): Record<string, unknown> {
  const full = `/${NAMESPACE}${route.pattern}`;
  const out: Record<string, unknown> = {
    namespace: NAMESPACE,
    methods: route.endpoints.flatMap((e) => [...e.methods]),
    endpoints: route.endpoints.map((e) => describeEndpoint(e, route.pattern)),
  };
  if (!route.pattern.includes('(?P<')) out._links = { self: [{ href: `${site.restRoot}${full.slice(1)}` }] };
  return out;
}

/** GET `/wp-json/tribe/events/v1`: routes keyed by raw pattern, in registration order (§7.2). Its `up` link is a
 * response link (`namespaceIndexLinks`), so it survives `_fields` as in core. */
export function namespaceIndex(site: Site, routes: readonly CompiledRoute[]): Record<string, unknown> {
  const entries: Record<string, unknown> = {};
  for (const r of routes) entries[`/${NAMESPACE}${r.pattern}`.replace(/\/$/, '')] = describeRoute(site, r);
  return { namespace: NAMESPACE, routes: entries };
}

export const namespaceIndexLinks = (site: Site): Record<string, unknown> => ({ up: [{ href: site.restRoot }] });

/** GET `/wp-json/`: the site index WordPress serves, listing this namespace. */
export function rootIndex(site: Site, routes: readonly CompiledRoute[], now: () => number): Record<string, unknown> {
  return {
    name: site.siteName, description: '', url: site.home, home: site.home,
    gmt_offset: String(offsetMinutes(site.timezone, now()) / 60), timezone_string: site.timezone.startsWith('UTC') ? '' : site.timezone,
    namespaces: [NAMESPACE], authentication: { 'application-passwords': { endpoints: {} } },
    routes: { '/': { namespace: '', methods: ['GET'], endpoints: [{ methods: ['GET'], args: {} }] }, ...(namespaceIndex(site, routes).routes as object) },
    _links: { help: [{ href: 'https://developer.wordpress.org/rest-api/' }] },
  };
}
