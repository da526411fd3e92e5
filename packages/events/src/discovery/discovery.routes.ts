import { Type } from '@sinclair/typebox';
import { endpoint, type CompiledRoute, type RouteDef } from '../http/route.ts';
import { declared } from '../http/args.ts';
import { NAMESPACE, type Site } from '../post/index.ts';
import { namespaceIndex, namespaceIndexLinks } from './index-document.ts';
import { openApiDocument } from './openapi.ts';

/** The namespace index and `/doc`; both read the final route table, so they are built lazily. */
export function discoveryRoutes(site: Site, routes: () => readonly CompiledRoute[]): RouteDef[] {
  return [
    {
      pattern: '',
      endpoints: [endpoint<Record<string, unknown>>({
        methods: ['GET'],
        args: { schema: Type.Object({
          namespace: Type.Optional(Type.String({ default: NAMESPACE, ...declared({ type: null }) })),
          context: Type.Optional(Type.String({ default: 'view', ...declared({ type: null }) })),
        }) },
        handler: (ctx) => ({ body: namespaceIndex(site, routes(), ctx.now), links: namespaceIndexLinks(site) }),
      })],
    },
    {
      pattern: '/doc',
      endpoints: [endpoint<Record<string, unknown>>({
        methods: ['GET'], args: { schema: Type.Object({}) },
        handler: () => ({ body: openApiDocument(site, routes()) }),
      })],
    },
  ];
}
