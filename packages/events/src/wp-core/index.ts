// WordPress core routes that clients of the plugin call around it: the API root, `/wp/v2/users` (the list, one user
// and `me`) and `/wp/v2/settings`.
import type { CompiledRoute, RouteDef } from '../http/route.ts';
import { namespaceIndexRoute } from '../discovery/index.ts';
import { rootRoutes } from './root.routes.ts';
import { settingsRoutes } from './settings.routes.ts';
import type { SiteOptions } from './site-options.ts';
import { usersMeRoutes } from './users-me.routes.ts';
import { usersRoutes, type UsersDeps } from './users.routes.ts';

export { wordpressCapabilities } from './capabilities.ts';
export { avatarUrls } from './gravatar.ts';
export type { SiteOptions } from './site-options.ts';

export const WP_NAMESPACE = 'wp/v2';

export interface WpCoreDeps extends SiteOptions, Omit<UsersDeps, 'site'> {
  /** The whole compiled route table, read lazily by the indexes. */
  readonly routes: () => readonly CompiledRoute[];
}

/** The routes of the namespace `''`: only the API root `/`. */
export const apiRootRoutes = (deps: WpCoreDeps): RouteDef[] => rootRoutes(deps, deps.routes);

/** The routes of `wp/v2` this service serves: its namespace index, `users/me`, `users`, `users/<id>` and `settings`. */
export function wpV2Routes(deps: WpCoreDeps): RouteDef[] {
  return [
    namespaceIndexRoute(deps.site, WP_NAMESPACE, deps.routes),
    // Core's order: the users controller registers the list, one user, then `me`.
    ...usersRoutes(deps),
    ...usersMeRoutes({ site: deps.site, findUser: deps.findUser }),
    ...settingsRoutes(deps),
  ];
}
