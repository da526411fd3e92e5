import { Type } from '@sinclair/typebox';
import { endpoint, type RouteDef } from '../http/route.ts';
import { wordpressCan } from './capabilities.ts';
import { FRESH_INSTALL_OPTIONS, timezoneOf, type SiteOptions } from './site-options.ts';

/**
 * GET `/wp/v2/settings`: the site settings WordPress shows in REST, to users with `manage_options` (administrators;
 * others get core's 401/403 `rest_forbidden`). Title, tagline, URL, e-mail and zone come from our configuration.
 */
export function settingsRoutes(options: SiteOptions): RouteDef[] {
  const { site } = options;
  return [
    {
      pattern: '/settings',
      endpoints: [
        endpoint<Record<string, never>>({
          methods: ['GET'],
          args: { schema: Type.Object({}) },
          permission: (ctx) => wordpressCan(ctx.caller, 'manage_options'),
          handler: async (ctx) => {
            const o = FRESH_INSTALL_OPTIONS;
            return {
              body: {
                title: site.siteName,
                description: options.tagline,
                url: site.home,
                email: await options.adminEmail(),
                timezone: timezoneOf(site, ctx.now).timezoneString,
                date_format: o.date_format,
                time_format: o.time_format,
                start_of_week: o.start_of_week,
                language: o.language,
                use_smilies: o.use_smilies,
                default_category: o.default_category,
                default_post_format: o.default_post_format,
                posts_per_page: o.posts_per_page,
                show_on_front: o.show_on_front,
                page_on_front: o.page_on_front,
                page_for_posts: o.page_for_posts,
                default_ping_status: o.default_ping_status,
                default_comment_status: o.default_comment_status,
                // No logo or icon can be set here: the values of a site without them.
                site_logo: null,
                site_icon: 0,
              },
            };
          },
        }),
      ],
    },
  ];
}
