import type { Site } from '../post/index.ts';
import { isRole, userSlug, type UserRow } from '../user/index.ts';
import { wordpressCan, wordpressCapabilities } from './capabilities.ts';
import { avatarUrls } from './gravatar.ts';
import type { Context } from './context-arg.ts';
import { FRESH_INSTALL_OPTIONS } from './site-options.ts';

/** `YYYY-MM-DD HH:MM:SS` (UTC) as `gmdate( 'c' )` prints it. */
const rfc3339 = (gmt: string) => `${gmt.replace(' ', 'T')}+00:00`;

/**
 * WP_REST_Users_Controller::prepare_item_for_response for one user: the view fields, `embed` without `meta`, and
 * `edit` with the account fields, roles and capabilities (shown to the user about themselves).
 */
export function userBody(user: UserRow, context: Context, site: Site): Record<string, unknown> {
  const slug = userSlug(user.login);
  const common = { name: user.display_name, url: user.url, description: '', link: `${site.home}/author/${slug}/` };
  if (context !== 'edit') {
    return {
      id: user.id,
      ...common,
      slug,
      avatar_urls: avatarUrls(user.email),
      ...(context === 'view' ? { meta: [] } : {}),
    };
  }
  const role = isRole(user.role) ? user.role : undefined;
  const caps = role ? wordpressCapabilities(role) : [];
  return {
    id: user.id,
    username: user.login,
    name: common.name,
    first_name: '',
    last_name: '',
    email: user.email,
    url: common.url,
    description: '',
    link: common.link,
    locale: FRESH_INSTALL_OPTIONS.language,
    nickname: user.login,
    slug,
    roles: role ? [role] : [],
    registered_date: rfc3339(user.created_gmt),
    // WordPress's allcaps: every capability of the role, then the role's own name.
    capabilities: Object.fromEntries([...caps, ...(role ? [role] : [])].map((c) => [c, true])),
    extra_capabilities: role ? { [role]: true } : {},
    avatar_urls: avatarUrls(user.email),
    meta: { persisted_preferences: [] },
  };
}

/**
 * The user's `self` and `collection` links. `targetHints.allow` says what WordPress would let `viewer` do with that
 * user: read; edit with `edit_users` or when it is the viewer; delete with `delete_users` (administrators).
 */
export function userLinks(user: UserRow, site: Site, viewer: { readonly id: number; readonly role: string } | null) {
  const canEdit = viewer !== null && (viewer.id === user.id || wordpressCan(viewer, 'edit_users'));
  const canDelete = wordpressCan(viewer, 'delete_users');
  const allow = ['GET', ...(canEdit ? ['POST', 'PUT', 'PATCH'] : []), ...(canDelete ? ['DELETE'] : [])];
  return {
    self: [{ href: `${site.restRoot}wp/v2/users/${user.id}`, targetHints: { allow } }],
    collection: [{ href: `${site.restRoot}wp/v2/users` }],
  };
}
