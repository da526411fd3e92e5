import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { isPostgres, retryWhileBusy, type ChangeSignal, type Database } from '../db/index.ts';
import type { Caller } from '../http/route.ts';
import { ApiError } from '../http/errors.ts';
import { formatWall, wallFromEpoch } from '../time/index.ts';
import { ROLE_CAPS, isRole, type Role } from './roles.ts';
import { generateAppPassword, hashPassword, verifyPassword } from './password.ts';
import { userRepository, type UserRow } from './user.repository.ts';

export class UserError extends Error {}

/** WordPress's `is_email` shape, loosely: one `@`, a dotted domain, no spaces; `''` means no e-mail. */
function checkEmail(email: string): string {
  const e = email.trim();
  if (e !== '' && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(e))
    throw new UserError(`--email must be an e-mail address, got ${email}`);
  return e;
}

/** A website is an absolute http(s) URL (WordPress's `esc_url_raw` keeps no other); `''` means none. */
function checkUrl(url: string): string {
  const u = url.trim();
  if (u === '') return u;
  let parsed: URL;
  try {
    parsed = new URL(u);
  } catch {
    throw new UserError(`--url must be an absolute http(s) URL, got ${url}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new UserError(`--url must be an absolute http(s) URL, got ${url}`);
  return u;
}

/** The logins `events user add` accepts: 1-60 letters, digits, `_ . @ -`. */
export const isLogin = (login: string): boolean => /^[A-Za-z0-9_.@-]{1,60}$/.test(login);

/** The checked value, or `''` where the check refuses it. */
function orEmpty(check: (v: string) => string, value: string): string {
  try {
    return check(value);
  } catch {
    return '';
  }
}

export function toCaller(u: UserRow): Caller {
  const caps = isRole(u.role) ? ROLE_CAPS[u.role] : new Set<string>();
  return { id: u.id, login: u.login, role: u.role, can: (cap) => caps.has(cap) };
}

const credentialKey = (login: string, password: string) =>
  createHash('sha256').update(`${login}\0${password}`).digest('base64');

interface Verified {
  readonly passwordId: number;
  readonly userId: number;
  caller?: Caller;
  checkedAt?: number;
}

/** Verified credentials remembered at most; past this the memory starts again (each then costs one scrypt run). */
const MAX_VERIFIED = 10_000;

/**
 * Users, roles and application passwords; also the HTTP Basic check. With `changes` (the store's change signal),
 * a verified credential's caller is reused without a query until the `users` topic moves: any change to users or
 * application passwords, from this process or another (the `events user` CLI, a sibling instance).
 */
export function userService(db: Kysely<Database>, changes?: Pick<ChangeSignal, 'read'>) {
  const repo = userRepository(db);
  // sha256(login\0password) → app password id, so scrypt runs once per credential; the id is re-checked whenever the
  // users signal moved, so a revoked password or removed user stops working at once.
  const verified = new Map<string, Verified>();
  const pending = new Map<string, Promise<{ user: UserRow; entry: Verified }>>();
  // SQLite's signal does not see this connection's own commits: changes made through this service forget directly.
  const forgetVerified = () => verified.clear();

  async function verify(login: string, password: string) {
    // No login holds a NUL (PostgreSQL cannot even compare one), so it is an unknown user on both stores.
    const user = login.includes('\0') ? undefined : await repo.findByLogin(login);
    if (!user) throw new ApiError('invalid_username', 'Unknown username. Check again or try your email address.');
    for (const pw of await repo.passwordsOf(user.id)) {
      if (await verifyPassword(password, pw.hash)) return { user, entry: { passwordId: pw.id, userId: user.id } };
    }
    throw new ApiError('incorrect_password', 'The provided password is an invalid application password.');
  }

  return {
    async add(
      login: string,
      role: string,
      opts: { appPassword?: string; email?: string; url?: string } = {},
    ): Promise<{ id: number; password: string; generated: boolean }> {
      if (!isLogin(login)) throw new UserError('login must be 1-60 characters of letters, digits, _ . @ -');
      if (!isRole(role)) throw new UserError(`role must be one of ${Object.keys(ROLE_CAPS).join(', ')}`);
      if (await repo.findByLogin(login)) throw new UserError(`user ${login} already exists`);
      const password = opts.appPassword ?? generateAppPassword();
      if (password.replace(/\s+/g, '').length < 8)
        throw new UserError('application password must have at least 8 characters');
      const email = checkEmail(opts.email ?? '');
      const url = checkUrl(opts.url ?? '');
      const created = formatWall(wallFromEpoch(Date.now()));
      // Hashed before the transaction: scrypt takes milliseconds that the write lock need not wait for.
      const hash = await hashPassword(password);
      const insert = () =>
        db.transaction().execute(async (trx) => {
          const r = userRepository(trx);
          const userId = await r.insert({ login, email, url, display_name: login, role, created_gmt: created });
          await r.addPassword(userId, 'cli', hash, created);
          return userId;
        });
      const id = await (isPostgres(db) ? insert() : retryWhileBusy(insert));
      return { id, password, generated: opts.appPassword === undefined };
    },
    async addPassword(login: string, name: string, appPassword?: string): Promise<string> {
      const user = await repo.findByLogin(login);
      if (!user) throw new UserError(`no user ${login}`);
      const password = appPassword ?? generateAppPassword();
      await repo.addPassword(user.id, name, await hashPassword(password), formatWall(wallFromEpoch(Date.now())));
      return password;
    },
    list: () => repo.list(),
    findByLogin: (login: string) => repo.findByLogin(login),
    /**
     * A user brought by an import (`events import tec`), written with `db` (the import's transaction): no
     * application password, so it cannot sign in until `events user add-password` gives it one, as WordPress's
     * importer gives a random password nobody knows. An e-mail or website that is not one is left empty.
     */
    async addImported(u: {
      login: string;
      role: Role;
      email: string;
      url: string;
      displayName: string;
      created: string;
    }): Promise<number> {
      if (!isLogin(u.login)) throw new UserError(`login ${u.login} is not 1-60 characters of letters, digits, _ . @ -`);
      if (await repo.findByLogin(u.login)) throw new UserError(`user ${u.login} already exists`);
      forgetVerified();
      return repo.insert({
        login: u.login,
        role: u.role,
        email: orEmpty(checkEmail, u.email),
        url: orEmpty(checkUrl, u.url),
        display_name: u.displayName,
        created_gmt: u.created,
      });
    },
    withPublishedPosts: () => repo.withPublishedPosts(),
    async remove(login: string): Promise<void> {
      forgetVerified();
      if (!(await repo.remove(login))) throw new UserError(`no user ${login}`);
    },
    async setRole(login: string, role: Role): Promise<void> {
      forgetVerified();
      if (!(await repo.setRole(login, role))) throw new UserError(`no user ${login}`);
    },
    userExists: (id: number) => repo.existsId(id),
    /** The user's row (profile fields for `/wp/v2/users/me`), or undefined once removed. */
    findById: (id: number): Promise<UserRow | undefined> => repo.findById(id),
    /** The administrator WordPress's installer would have made: the first one created. */
    firstAdministrator: (): Promise<UserRow | undefined> => repo.firstWithRole('administrator'),

    /** The caller when this credential was verified before and is still valid (no hashing; a query only after a change). */
    async known(login: string, password: string): Promise<Caller | undefined> {
      const key = credentialKey(login, password);
      const hit = verified.get(key);
      if (hit === undefined) return undefined;
      // Read before the query: a change committed while it runs moves the signal past the stamp kept.
      const stamp = changes?.read('users');
      if (stamp !== undefined && hit.caller !== undefined && hit.checkedAt === stamp) return hit.caller;
      const user = await repo.findWithPassword(hit.userId, hit.passwordId);
      if (user === undefined) {
        verified.delete(key);
        return undefined;
      }
      hit.caller = toCaller(user);
      hit.checkedAt = stamp;
      return hit.caller;
    },

    /** Checks HTTP Basic credentials as WordPress application passwords do, with its 401 codes. */
    async verify(login: string, password: string): Promise<Caller> {
      const key = credentialKey(login, password);
      // Concurrent first requests with one credential share a single scrypt run.
      let running = pending.get(key);
      if (!running) {
        running = verify(login, password).finally(() => pending.delete(key));
        pending.set(key, running);
      }
      const hitNow = await running;
      if (verified.size >= MAX_VERIFIED) verified.clear();
      // The caller is remembered only by `known`, which stamps it with the signal read before its query.
      verified.set(key, { passwordId: hitNow.entry.passwordId, userId: hitNow.entry.userId });
      return toCaller(hitNow.user);
    },
  };
}

export type UserService = ReturnType<typeof userService>;
