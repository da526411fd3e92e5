import { isRole, type Role } from '../user/index.ts';

// The capabilities WordPress gives each role (wp-admin/includes/schema.php, populate_roles_160 … _300, in the order
// they were added, which is the order `users/me?context=edit` lists them), and those The Events Calendar grants on
// top. Our own permission checks use user/roles.ts; this table only describes the user as WordPress would.

const LEVELS = (top: number) => Array.from({ length: top + 1 }, (_, i) => `level_${top - i}`);

/** Pages and others' and private posts: what 2.1 gave editors and administrators. */
const EDITORIAL = [
  'edit_others_pages',
  'edit_published_pages',
  'publish_pages',
  'delete_pages',
  'delete_others_pages',
  'delete_published_pages',
  'delete_posts',
  'delete_others_posts',
  'delete_published_posts',
  'delete_private_posts',
  'edit_private_posts',
  'read_private_posts',
  'delete_private_pages',
  'edit_private_pages',
  'read_private_pages',
];

const CORE_CAPS: Readonly<Record<Role, readonly string[]>> = {
  administrator: [
    'switch_themes',
    'edit_themes',
    'activate_plugins',
    'edit_plugins',
    'edit_users',
    'edit_files',
    'manage_options',
    'moderate_comments',
    'manage_categories',
    'manage_links',
    'upload_files',
    'import',
    'unfiltered_html',
    'edit_posts',
    'edit_others_posts',
    'edit_published_posts',
    'publish_posts',
    'edit_pages',
    'read',
    ...LEVELS(10),
    ...EDITORIAL,
    'delete_users',
    'create_users',
    'unfiltered_upload',
    'edit_dashboard',
    'update_plugins',
    'delete_plugins',
    'install_plugins',
    'update_themes',
    'install_themes',
    'update_core',
    'list_users',
    'remove_users',
    'promote_users',
    'edit_theme_options',
    'delete_themes',
    'export',
  ],
  editor: [
    'moderate_comments',
    'manage_categories',
    'manage_links',
    'upload_files',
    'unfiltered_html',
    'edit_posts',
    'edit_others_posts',
    'edit_published_posts',
    'publish_posts',
    'edit_pages',
    'read',
    ...LEVELS(7),
    ...EDITORIAL,
  ],
  author: [
    'upload_files',
    'edit_posts',
    'edit_published_posts',
    'publish_posts',
    'read',
    ...LEVELS(2),
    'delete_posts',
    'delete_published_posts',
  ],
  contributor: ['edit_posts', 'read', ...LEVELS(1), 'delete_posts'],
  subscriber: ['read', 'level_0'],
};

/** The post types whose capabilities The Events Calendar adds to every role (events, venues, organizers, imports). */
const TEC_TYPES = ['tribe_events', 'tribe_venues', 'tribe_organizers', 'aggregator-records'];

/** Tribe__Capabilities::set_up_caps_for_role: each `*_posts` capability a role has, granted per TEC post type. */
const TEC_FROM_CORE: ReadonlyArray<readonly [core: string, prefix: string]> = [
  ['read_private_posts', 'read_private_'],
  ['edit_posts', 'edit_'],
  ['edit_others_posts', 'edit_others_'],
  ['edit_private_posts', 'edit_private_'],
  ['edit_published_posts', 'edit_published_'],
  ['delete_posts', 'delete_'],
  ['delete_others_posts', 'delete_others_'],
  ['delete_private_posts', 'delete_private_'],
  ['delete_published_posts', 'delete_published_'],
  ['publish_posts', 'publish_'],
];

/**
 * Every capability of the role as WordPress with The Events Calendar lists them, in its order.
 * @example wordpressCapabilities('contributor') // ['edit_posts', 'read', 'level_1', 'level_0', 'delete_posts', 'edit_tribe_events', …]
 */
export function wordpressCapabilities(role: Role): string[] {
  const core = CORE_CAPS[role];
  const tec = TEC_TYPES.flatMap((type) =>
    TEC_FROM_CORE.filter(([cap]) => core.includes(cap)).map(([, prefix]) => `${prefix}${type}`),
  );
  return [...core, ...tec];
}

/**
 * `current_user_can( cap )` for a primitive capability: whether WordPress gives it to the caller's role.
 * @example wordpressCan({ role: 'administrator' }, 'delete_users') // true
 */
export function wordpressCan(caller: { readonly role: string } | null, cap: string): boolean {
  return caller !== null && isRole(caller.role) && wordpressCapabilities(caller.role).includes(cap);
}
