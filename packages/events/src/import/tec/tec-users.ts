import type { Kysely } from 'kysely';
import type { Database } from '../../db/index.ts';
import type { Services } from '../../services.ts';
import { formatWall, wallFromEpoch } from '../../time/index.ts';
import { isLogin, isRole, userSlug, type Role, type UserRow } from '../../user/index.ts';
import { claimNextId } from './keep-ids.ts';
import { authorIdOf, type TecItem, type TecUser } from './tec-items.ts';
import type { TecLinksRepository } from './tec-links.repository.ts';
import type { IdMap } from './tec-params.ts';
import type { TecUsers } from './tec-source.ts';

/** What an import did with the source's users (its authors). */
export interface TecUsersReport {
  /** The list read: `edit` (with logins, e-mails and roles), `view` (public authors only) or `none`. */
  readonly context: 'edit' | 'view' | 'none';
  /** Why no list was read (`none`): every item is then written by the importing user. */
  readonly reason?: string;
  readonly created: number;
  /** Source users found here: by an earlier import's link, by login (edit context), or by slug. */
  readonly matched: number;
  /** Venues, organizers and events whose source author is not among the users read: the importing user's. */
  readonly unmapped: number;
}

export interface UserWritesDeps {
  readonly db: Kysely<Database>;
  readonly s: Services;
  readonly links: TecLinksRepository;
  /** The source's key in `tec_links`. */
  readonly source: string;
  /** Whether the source's ids are kept (the store held no post or term): a user's id too, where it is free. */
  readonly keepIds: boolean;
  readonly now: number;
}

/**
 * The login a new user gets: the source's login where it is one `events user add` accepts, else its slug (a login
 * with spaces, which WordPress allows, is not). Undefined when neither is: that user's items keep the importer.
 */
function loginFor(u: TecUser): string | undefined {
  if (u.login !== undefined && isLogin(u.login)) return u.login;
  return isLogin(u.slug) ? u.slug : undefined;
}

/**
 * The role a new user gets: the source's (edit context) when it is one of ours; else WordPress's default role,
 * `subscriber`, as its importer gives the authors it creates. Matched users keep theirs: an import never raises one.
 */
const roleFor = (u: TecUser): Role => u.roles?.find(isRole) ?? 'subscriber';

/** `registered_date` (RFC 3339) as a stored UTC wall time; the import's instant when absent or unreadable. */
function createdOf(u: TecUser, now: number): string {
  const ms = u.registered === undefined ? NaN : Date.parse(u.registered);
  return formatWall(wallFromEpoch(Number.isFinite(ms) ? ms : now));
}

/**
 * Maps each source user to a local one, in ascending source id: the user an earlier import linked (if it still
 * exists), else the local user of the same login (edit context) or slug, else a new user without any application
 * password (it cannot sign in until given one). Every mapping is linked (`tec_links`, kind `users`) in the import's
 * transaction. Returns source id → local id.
 */
export async function writeUsers(
  d: UserWritesDeps,
  users: readonly TecUser[],
): Promise<{ ids: Map<number, number>; created: number; matched: number }> {
  const linked = await d.links.find(
    d.source,
    'users',
    users.map((u) => u.id),
  );
  const byId = new Map<number, UserRow>();
  const byLogin = new Map<string, UserRow>();
  const bySlug = new Map<string, UserRow>();
  const know = (u: UserRow) => {
    byId.set(u.id, u);
    byLogin.set(u.login, u);
    // Two logins may share a slug here (`a.b`, `a-b`); the older user is WordPress's holder of that nicename.
    if (!bySlug.has(userSlug(u.login))) bySlug.set(userSlug(u.login), u);
  };
  (await d.s.users.list()).forEach(know);
  const ids = new Map<number, number>();
  let created = 0;
  let matched = 0;
  for (const u of [...users].sort((a, b) => a.id - b.id)) {
    const link = linked.get(u.id);
    const login = loginFor(u);
    const local =
      (link === undefined ? undefined : byId.get(link)) ??
      (u.login === undefined ? undefined : byLogin.get(u.login)) ??
      (login === undefined ? undefined : byLogin.get(login)) ??
      bySlug.get(u.slug);
    if (local !== undefined) {
      ids.set(u.id, local.id);
      matched++;
      continue;
    }
    if (login === undefined) continue;
    if (d.keepIds) await claimNextId(d.db, 'users', u.id);
    const row = {
      login,
      role: roleFor(u),
      email: u.email ?? '',
      url: u.url,
      displayName: u.name.trim() === '' ? login : u.name,
      created: createdOf(u, d.now),
    };
    const id = await d.s.users.addImported(row);
    know({
      id,
      login,
      email: row.email,
      display_name: row.displayName,
      role: row.role,
      created_gmt: row.created,
      url: row.url,
    });
    ids.set(u.id, id);
    created++;
  }
  await d.links.save(d.source, 'users', ids);
  return { ids, created, matched };
}

/**
 * The users step of an import: the source's users written or matched (`writeUsers`), the map the items' `author`
 * goes through, and the report, which counts the `items` whose author is not mapped.
 */
export async function importUsers(
  d: UserWritesDeps,
  users: TecUsers,
  items: readonly TecItem[],
): Promise<{ author: IdMap; report: TecUsersReport }> {
  const written =
    users.context === 'none'
      ? { ids: new Map<number, number>(), created: 0, matched: 0 }
      : await writeUsers(d, users.list);
  const author: IdMap = (id) => written.ids.get(id);
  const unmapped = items.filter((item) => {
    const source = authorIdOf(item.json);
    return source === undefined || author(source) === undefined;
  }).length;
  const { created, matched } = written;
  const reason = users.context === 'none' ? { reason: users.reason } : {};
  return { author, report: { context: users.context, ...reason, created, matched, unmapped } };
}
