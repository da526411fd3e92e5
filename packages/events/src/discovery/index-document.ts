import type { TSchema } from '@sinclair/typebox';
import { describeArg, isDeclared, type DeclarationContext } from '../http/args.ts';
import type { CompiledRoute, Endpoint } from '../http/route.ts';
import type { Site } from '../post/index.ts';

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

/** One entry of an index (the API root's or a namespace's), also the body of OPTIONS on the route (`help`: with the
 * route's schema, as core prints it only for OPTIONS). */
export function describeRoute(site: Site, route: CompiledRoute, now: number, help = true): Record<string, unknown> {
  const at = { now, timezone: site.timezone };
  const out: Record<string, unknown> = {
    namespace: route.namespace,
    methods: route.endpoints.flatMap((e) => [...e.methods]),
    endpoints: route.declaration?.endpoints ?? route.endpoints.map((e) => describeEndpoint(e, route.pattern, at)),
  };
  if (help && route.declaration?.schema !== undefined) out.schema = route.declaration.schema;
  if (!route.pattern.includes('(?P<')) out._links = { self: [{ href: `${site.restRoot}${route.path.slice(1)}` }] };
  return out;
}

/** Routes keyed by their raw pattern, in registration order (§7.2), as `get_data_for_routes` lists them. */
export function describeRoutes(site: Site, routes: readonly CompiledRoute[], now: number): Record<string, unknown> {
  const entries: Record<string, unknown> = {};
  for (const r of routes)
    entries[r.path.length > 1 ? r.path.replace(/\/$/, '') : r.path] = describeRoute(site, r, now, false);
  return entries;
}

/** GET `/wp-json/{namespace}`: the routes registered in that namespace. Its `up` link is a response link
 * (`namespaceIndexLinks`), so it survives `_fields` as in core. */
export function namespaceIndex(
  site: Site,
  namespace: string,
  routes: readonly CompiledRoute[],
  now: number,
): Record<string, unknown> {
  return {
    namespace,
    routes: describeRoutes(
      site,
      routes.filter((r) => r.namespace === namespace),
      now,
    ),
  };
}

export const namespaceIndexLinks = (site: Site): Record<string, unknown> => ({ up: [{ href: site.restRoot }] });

/** The namespaces of the route registry in registration order, as `array_keys( $this->namespaces )` (the root's own `''` is not one). */
export const registeredNamespaces = (routes: readonly CompiledRoute[]): string[] =>
  [...new Set(routes.map((r) => r.namespace))].filter((ns) => ns !== '');
