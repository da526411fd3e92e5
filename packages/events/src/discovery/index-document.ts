import type { TSchema } from '@sinclair/typebox';
import { describeArg, isDeclared, type DeclarationContext } from '../http/args.ts';
import type { CompiledRoute, Endpoint } from '../http/route.ts';
import { NAMESPACE, type Site } from '../post/index.ts';
import { offsetMinutes } from '../time/index.ts';

function describeEndpoint(e: Endpoint, pattern: string, at: DeclarationContext): Record<string, unknown> {
  const props = Object.entries(e.args.schema.properties as Record<string, TSchema>).filter(([, s]) => isDeclared(s));
  // Core prints an endpoint without arguments as a PHP empty array: `[]`.
  if (props.length === 0) return { methods: [...e.methods], args: [] };
  const args: Record<string, unknown> = {};
  const pathParams = [...pattern.matchAll(/\(\?P<(\w+)>/g)].map((m) => m[1]);
  for (const [name, schema] of props) {
    if (!pathParams.includes(name)) args[name] = describeArg(schema, at);
  }
  for (const name of pathParams) {
    const schema = props.find(([n]) => n === name)?.[1];
    if (schema) args[name!] = describeArg(schema, at);
  }
  return { methods: [...e.methods], args };
}

/** One entry of the namespace index, also the body of OPTIONS on the route (`help`: with the route's schema, as core). */
export function describeRoute(site: Site, route: CompiledRoute, now: number, help = true): Record<string, unknown> {
  const at = { now, timezone: site.timezone };
  const full = `/${route.namespace}${route.pattern}`;
  const out: Record<string, unknown> = {
    namespace: route.namespace,
    methods: route.endpoints.flatMap((e) => [...e.methods]),
    endpoints: route.declaration?.endpoints ?? route.endpoints.map((e) => describeEndpoint(e, route.pattern, at)),
  };
  if (help && route.declaration?.schema !== undefined) out.schema = route.declaration.schema;
  if (!route.pattern.includes('(?P<')) out._links = { self: [{ href: `${site.restRoot}${full.slice(1)}` }] };
  return out;
}

/** GET `/wp-json/tribe/events/v1`: routes keyed by raw pattern, in registration order (§7.2). Its `up` link is a
 * response link (`namespaceIndexLinks`), so it survives `_fields` as in core. */
export function namespaceIndex(site: Site, routes: readonly CompiledRoute[], now: number, namespace = NAMESPACE): Record<string, unknown> {
  const entries: Record<string, unknown> = {};
  for (const r of routes) if (r.namespace === namespace) entries[`/${namespace}${r.pattern}`.replace(/\/$/, '')] = describeRoute(site, r, now, false);
  return { namespace, routes: entries };
}

export const namespaceIndexLinks = (site: Site): Record<string, unknown> => ({ up: [{ href: site.restRoot }] });

/** GET `/wp-json/`: the site index WordPress serves, listing this namespace. */
export function rootIndex(site: Site, routes: readonly CompiledRoute[], now: () => number): Record<string, unknown> {
  return {
    name: site.siteName, description: '', url: site.home, home: site.home,
    gmt_offset: String(offsetMinutes(site.timezone, now()) / 60), timezone_string: site.timezone.startsWith('UTC') ? '' : site.timezone,
    namespaces: [NAMESPACE], authentication: { 'application-passwords': { endpoints: {} } },
    routes: { '/': { namespace: '', methods: ['GET'], endpoints: [{ methods: ['GET'], args: {} }] }, ...(namespaceIndex(site, routes, now()).routes as object) },
    _links: { help: [{ href: 'https://developer.wordpress.org/rest-api/' }] },
  };
}
