import { Type } from '@sinclair/typebox';
import { declared } from '../http/args.ts';
import { endpoint, type CompiledRoute, type RouteDef } from '../http/route.ts';
import { isFieldIncluded } from '../http/response-shape.ts';
import { describeRoutes, registeredNamespaces } from '../discovery/index.ts';
import { FRESH_INSTALL_OPTIONS, timezoneOf, type SiteOptions } from './site-options.ts';

/**
 * GET `/wp-json/` (WP_REST_Server::get_index), registered as the route `/` of the namespace `''`. Its `namespaces`
 * and `routes` are read from the final route registry, so every namespace the app mounts is listed, in order.
 */
export function rootRoutes(options: SiteOptions, routes: () => readonly CompiledRoute[]): RouteDef[] {
  const { site } = options;
  return [
    {
      pattern: '/',
      endpoints: [
        endpoint<{ context: string }>({
          methods: ['GET'],
          args: {
            schema: Type.Object({
              context: Type.Optional(Type.String({ default: 'view', ...declared({ type: null }) })),
            }),
          },
          handler: (ctx) => {
            const zone = timezoneOf(site, ctx.now);
            const all = routes();
            const body = {
              name: site.siteName,
              description: options.tagline,
              url: site.home,
              home: site.home,
              gmt_offset: zone.gmtOffset,
              timezone_string: zone.timezoneString,
              page_for_posts: FRESH_INSTALL_OPTIONS.page_for_posts,
              page_on_front: FRESH_INSTALL_OPTIONS.page_on_front,
              show_on_front: FRESH_INSTALL_OPTIONS.show_on_front,
              namespaces: registeredNamespaces(all),
              // Application passwords are the one scheme; there is no wp-admin page to authorize an application with.
              authentication: { 'application-passwords': { endpoints: {} } },
              routes: describeRoutes(site, all, ctx.now),
              // Core adds these with its links, or when `_fields` names them: `_fields` filtering keeps them alike.
              site_logo: 0,
              site_icon: 0,
              site_icon_url: '',
            };
            const linked = isFieldIncluded('_links', ctx.query._fields) || ctx.query._embed !== undefined;
            return {
              body,
              ...(linked ? { links: { help: [{ href: 'https://developer.wordpress.org/rest-api/' }] } } : {}),
            };
          },
        }),
      ],
    },
  ];
}
