import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/index.ts';
import type { Caller } from '../http/route.ts';
import { ApiError } from '../http/errors.ts';
import { formatWall, wallFromEpoch } from '../time/index.ts';
import { ROLE_CAPS, isRole, type Role } from './roles.ts';
import { generateAppPassword, hashPassword, verifyPassword } from './password.ts';
import { userRepository, type UserRow } from './user.repository.ts';

export class UserError extends Error {}

function toCaller(u: UserRow): Caller {
  const caps = isRole(u.role) ? ROLE_CAPS[u.role] : new Set<string>();
  return { id: u.id, login: u.login, role: u.role, can: (cap) => caps.has(cap) };
}

const credentialKey = (login: string, password: string) => createHash('sha256').update(`${login}\0${password}`).digest('base64');

/** Users, roles and application passwords; also the HTTP Basic check. */
export function userService(db: Kysely<Database>) {
  const repo = userRepository(db);
  // sha256(login:password) → app password id, so scrypt runs once per credential; the id is re-checked on every
  // request so a revoked password or removed user stops working at once.
  const verified = new Map<string, { passwordId: number; userId: number }>();
  const pending = new Map<string, Promise<{ user: UserRow; entry: { passwordId: number; userId: number } }>>();

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
    async add(login: string, role: string, opts: { appPassword?: string; email?: string } = {}): Promise<{ id: number; password: string; generated: boolean }> {
      if (!/^[A-Za-z0-9_.@-]{1,60}$/.test(login)) throw new UserError('login must be 1-60 characters of letters, digits, _ . @ -');
      if (!isRole(role)) throw new UserError(`role must be one of ${Object.keys(ROLE_CAPS).join(', ')}`);
      if (await repo.findByLogin(login)) throw new UserError(`user ${login} already exists`);
      const password = opts.appPassword ?? generateAppPassword();
      if (password.replace(/\s+/g, '').length < 8) throw new UserError('application password must have at least 8 characters');
      const created = formatWall(wallFromEpoch(Date.now()));
      const id = await db.transaction().execute(async (trx) => {
        const r = userRepository(trx);
        const userId = await r.insert({ login, email: opts.email ?? '', display_name: login, role, created_gmt: created });
        await r.addPassword(userId, 'cli', await hashPassword(password), created);
        return userId;
      });
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
    async remove(login: string): Promise<void> {
      if (!(await repo.remove(login))) throw new UserError(`no user ${login}`);
    },
    async setRole(login: string, role: Role): Promise<void> {
      if (!(await repo.setRole(login, role))) throw new UserError(`no user ${login}`);
    },
    userExists: (id: number) => repo.existsId(id),

    /** The caller when this credential was verified before and is still valid (one query, no hashing). */
    async known(login: string, password: string): Promise<Caller | undefined> {
      const key = credentialKey(login, password);
      const hit = verified.get(key);
      if (hit === undefined) return undefined;
      const user = await repo.findWithPassword(hit.userId, hit.passwordId);
      if (user) return toCaller(user);
      verified.delete(key);
      return undefined;
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
      if (verified.size > 10_000) verified.clear();
      verified.set(key, hitNow.entry);
      return toCaller(hitNow.user);
    },
  };
}

export type UserService = ReturnType<typeof userService>;
