// WordPress roles with the capability bundles The Events Calendar grants on its three post types
// (events-compat.md §3.1). One capability set serves events, venues and organizers, as the plugin's bundles are equal.

export const ROLES = ['administrator', 'editor', 'author', 'contributor', 'subscriber'] as const;
export type Role = (typeof ROLES)[number];

const EVERYTHING = [
  'read',
  'read_private',
  'edit',
  'edit_others',
  'edit_private',
  'edit_published',
  'delete',
  'delete_others',
  'delete_private',
  'delete_published',
  'publish',
  'upload_files',
  'manage_categories',
  'unfiltered_html',
  'list_users',
];

export const ROLE_CAPS: Readonly<Record<Role, ReadonlySet<string>>> = {
  administrator: new Set(EVERYTHING),
  editor: new Set(EVERYTHING.filter((c) => c !== 'list_users')),
  author: new Set(['read', 'edit', 'edit_published', 'delete', 'delete_published', 'publish', 'upload_files']),
  contributor: new Set(['read', 'edit', 'delete']),
  subscriber: new Set(['read']),
};

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}
