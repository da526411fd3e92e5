import { readFileSync } from 'node:fs';
import { Type } from '@sinclair/typebox';
import { endpoint, type CompiledRoute, type RouteDef } from '../http/route.ts';
import type { EventService } from '../event/index.ts';
import type { LinkedService, PostRow, Site } from '../post/index.ts';
import type { TermService } from '../term/index.ts';
import { namespaceIndex, namespaceIndexLinks } from '../discovery/index.ts';
import { entityRoutes } from './entity.routes.ts';
import { eventAdapter } from './event.adapter.ts';
import { linkedAdapter } from './linked.adapter.ts';

// The `tec/v1` namespace (issue 25): The Events Calendar's newer REST API over the same services, caches and rows as
// `tribe/events/v1`. Only the shapes and parameters are its own (README "tec/v1").

export const TEC_NAMESPACE = 'tec/v1';

export interface TecDeps {
  readonly site: Site;
  readonly events: EventService;
  readonly terms: TermService;
  readonly venues: LinkedService;
  readonly organizers: LinkedService;
  readonly findPost: (id: number) => Promise<PostRow | undefined>;
  readonly userExists: (id: number) => Promise<boolean>;
}

interface Recorded<T> {
  version: number;
  about: string;
  routes?: T;
  document?: T;
}
const FORMAT_VERSION = 1;

/** A recorded document of the plugin's (its printed declarations, its OpenAPI document), for this site's URL. */
function recorded<T>(file: string, key: 'routes' | 'document', home: string): T {
  const text = readFileSync(new URL(`./recorded/${file}`, import.meta.url), 'utf8');
  const data = JSON.parse(text.replaceAll('{home}', home.replace(/["\\]/g, ''))) as Recorded<T>;
  if (data.version !== FORMAT_VERSION)
    throw new Error(`tec-v1/recorded/${file}: version ${data.version}, expected ${FORMAT_VERSION}`);
  return data[key]!;
}

type Declarations = Record<string, { endpoints: unknown[]; schema?: unknown }>;

/** Every `tec/v1` route; `routes` is the final compiled table (the namespace index lists it). */
export function tecRoutes(deps: TecDeps, routes: () => readonly CompiledRoute[]): RouteDef[] {
  const { site } = deps;
  const declarations = recorded<Declarations>('declarations.json', 'routes', site.home);
  const openApi = recorded<unknown>('openapi.json', 'document', site.home);
  const entity = { site, findPost: deps.findPost };
  const defs: RouteDef[] = [
    {
      pattern: '',
      endpoints: [
        endpoint<Record<string, unknown>>({
          methods: ['GET'],
          args: { schema: Type.Object({}) },
          handler: (ctx) => ({
            body: namespaceIndex(site, TEC_NAMESPACE, routes(), ctx.now),
            links: namespaceIndexLinks(site),
          }),
        }),
      ],
    },
    ...entityRoutes(entity, eventAdapter(deps)),
    ...entityRoutes(entity, linkedAdapter(site, deps.organizers, deps.userExists)),
    ...entityRoutes(entity, linkedAdapter(site, deps.venues, deps.userExists)),
    // Not experimental: readable without the acknowledgement header.
    {
      pattern: '/docs',
      endpoints: [
        endpoint({ methods: ['GET'], args: { schema: Type.Object({}) }, handler: () => ({ body: openApi }) }),
      ],
    },
  ];
  return defs.map((d) => (declarations[d.pattern] ? { ...d, declaration: declarations[d.pattern] } : d));
}
