import { isRole, userSlug, type UserRow } from '../user/index.ts';
import { wordpressCapabilities } from './capabilities.ts';

// WP_User_Query as `/wp/v2/users` drives it, over the user rows. Done in memory, not in SQL: the slug
// (`user_nicename`) is derived from the login here and stored nowhere, and a site's users are few (thousands at
// most), so one read of the table answers every filter and order the same way on both stores.

export const USER_ORDERBY = [
  'id',
  'include',
  'name',
  'registered_date',
  'slug',
  'include_slugs',
  'email',
  'url',
] as const;
export type UserOrderBy = (typeof USER_ORDERBY)[number];

/** The columns a search looks in (`search_columns`). */
type SearchColumn = 'ID' | 'user_login' | 'user_url' | 'user_email' | 'user_nicename' | 'display_name';

export interface UsersQuery {
  readonly search?: string;
  /** Whether the caller may list users: else a search never looks at e-mails or websites (core's privacy rule). */
  readonly listUsers: boolean;
  readonly include: readonly number[];
  readonly exclude: readonly number[];
  readonly slugs?: readonly string[];
  readonly roles?: readonly string[];
  readonly capabilities?: readonly string[];
  /** `who=authors`: users above level 0 (every role but subscriber). */
  readonly authorsOnly: boolean;
  /** `has_published_posts`: only these users (callers without `list_users`). */
  readonly publishedAuthors?: ReadonlySet<number>;
  readonly orderby: UserOrderBy;
  readonly order: 'asc' | 'desc';
  readonly offset: number;
  readonly perPage: number;
}

/** WP_User_Query's columns for a search term when none are named: by its shape. */
function searchColumns(term: string, listUsers: boolean): readonly SearchColumn[] {
  if (!listUsers) return ['ID', 'user_login', 'user_nicename', 'display_name'];
  if (term.includes('@')) return ['user_email'];
  if (/^\d+$/.test(term)) return ['user_login', 'ID'];
  if (/^https?:\/\//.test(term)) return ['user_url'];
  return ['user_login', 'user_url', 'user_email', 'user_nicename', 'display_name'];
}

const COLUMN: Record<Exclude<SearchColumn, 'ID'>, (u: UserRow) => string> = {
  user_login: (u) => u.login,
  user_url: (u) => u.url,
  user_email: (u) => u.email,
  user_nicename: (u) => userSlug(u.login),
  display_name: (u) => u.display_name,
};

/** `*term*` is a LIKE on both sides, a `*` at one end on that side only; MySQL's collation ignores case. */
function matcher(search: string, listUsers: boolean): (u: UserRow) => boolean {
  const leading = search.startsWith('*');
  const trailing = search.endsWith('*');
  const term = search.replace(/^\*+|\*+$/g, '');
  const wanted = term.toLowerCase();
  const like = (value: string) => {
    const v = value.toLowerCase();
    if (leading && trailing) return v.includes(wanted);
    if (leading) return v.endsWith(wanted);
    if (trailing) return v.startsWith(wanted);
    return v === wanted;
  };
  const columns = searchColumns(term, listUsers);
  return (u) => columns.some((c) => (c === 'ID' ? String(u.id) === term : like(COLUMN[c](u))));
}

// utf8mb4_unicode_ci, near enough: case and accents do not order names.
const collator = new Intl.Collator('en', { sensitivity: 'base' });

function sortKey(q: UsersQuery): (a: UserRow, b: UserRow) => number {
  const position = (list: readonly (number | string)[], v: number | string) => {
    const at = list.indexOf(v);
    return at < 0 ? list.length : at;
  };
  const text = (f: (u: UserRow) => string) => (a: UserRow, b: UserRow) => collator.compare(f(a), f(b));
  switch (q.orderby) {
    case 'id':
      return (a, b) => a.id - b.id;
    case 'include':
      return (a, b) => position(q.include, a.id) - position(q.include, b.id);
    case 'name':
      return text((u) => u.display_name);
    case 'registered_date':
      return (a, b) => (a.created_gmt < b.created_gmt ? -1 : a.created_gmt > b.created_gmt ? 1 : 0);
    case 'slug':
      return text((u) => userSlug(u.login));
    case 'include_slugs':
      return (a, b) => position(q.slugs ?? [], userSlug(a.login)) - position(q.slugs ?? [], userSlug(b.login));
    case 'email':
      return text((u) => u.email);
    case 'url':
      return text((u) => u.url);
  }
}

/**
 * The page of users the query selects and how many it selects in all (`X-WP-Total`). Ties keep id order.
 * @example queryUsers(rows, { ...q, orderby: 'name', order: 'asc', offset: 0, perPage: 10 }).items
 */
export function queryUsers(users: readonly UserRow[], q: UsersQuery): { items: UserRow[]; total: number } {
  const found = q.search === undefined || q.search === '' ? undefined : matcher(q.search, q.listUsers);
  const capsOf = (u: UserRow) => (isRole(u.role) ? wordpressCapabilities(u.role) : []);
  const selected = users.filter(
    (u) =>
      (q.include.length === 0 || q.include.includes(u.id)) &&
      !q.exclude.includes(u.id) &&
      (q.slugs === undefined || q.slugs.length === 0 || q.slugs.includes(userSlug(u.login))) &&
      (q.roles === undefined || q.roles.length === 0 || q.roles.includes(u.role)) &&
      (q.capabilities === undefined ||
        q.capabilities.length === 0 ||
        q.capabilities.some((c) => capsOf(u).includes(c))) &&
      (!q.authorsOnly || u.role !== 'subscriber') &&
      (q.publishedAuthors === undefined || q.publishedAuthors.has(u.id)) &&
      (found === undefined || found(u)),
  );
  const compare = sortKey(q);
  const sign = q.order === 'desc' ? -1 : 1;
  selected.sort((a, b) => sign * compare(a, b) || a.id - b.id);
  return { items: selected.slice(q.offset, q.offset + q.perPage), total: selected.length };
}
