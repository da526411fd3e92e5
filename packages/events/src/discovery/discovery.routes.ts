import { Type } from '@sinclair/typebox';
import { endpoint, type CompiledRoute, type RouteDef } from '../http/route.ts';
import { declared } from '../http/args.ts';
import { NAMESPACE, type Site } from '../post/index.ts';
import { namespaceIndex, namespaceIndexLinks } from './index-document.ts';
import { openApiDocument } from './openapi.ts';
import { openApiSchemas, type EventPropertiesOf } from './openapi.schemas.ts';

/**
 * GET `/wp-json/{namespace}`, which WordPress registers for every namespace: pattern `''` inside it. It reads the
 * final route table, so it is built lazily.
 * @example compileRoutes('wp/v2', [namespaceIndexRoute(site, 'wp/v2', () => compiled), ...])
 */
export function namespaceIndexRoute(site: Site, namespace: string, routes: () => readonly CompiledRoute[]): RouteDef {
  return {
    pattern: '',
    endpoints: [
      endpoint<Record<string, unknown>>({
        methods: ['GET'],
        args: {
          schema: Type.Object({
            namespace: Type.Optional(Type.String({ default: namespace, ...declared({ type: null }) })),
            context: Type.Optional(Type.String({ default: 'view', ...declared({ type: null }) })),
          }),
        },
        handler: (ctx) => ({
          body: namespaceIndex(site, namespace, routes(), ctx.now),
          links: namespaceIndexLinks(site),
        }),
      }),
    ],
  };
}

/** The `tribe/events/v1` namespace index and `/doc`. */
export function discoveryRoutes(
  site: Site,
  routes: () => readonly CompiledRoute[],
  eventProperties: EventPropertiesOf,
): RouteDef[] {
  const schemas = openApiSchemas(eventProperties);
  return [
    namespaceIndexRoute(site, NAMESPACE, routes),
    {
      pattern: '/doc',
      endpoints: [
        endpoint<Record<string, unknown>>({
          methods: ['GET'],
          args: { schema: Type.Object({}) },
          handler: () => ({
            body: openApiDocument(
              site,
              routes().filter((r) => r.namespace === NAMESPACE),
              schemas,
            ),
          }),
        }),
      ],
    },
  ];
}
