import type { Caller } from './route.ts';
import { ApiError } from './errors.ts';

/** The password checks behind Basic auth (the user service). */
export interface Credentials {
  /** The caller when this exact credential was verified before and is still valid: no password hashing. */
  known(login: string, password: string): Promise<Caller | undefined>;
  /** The full check; throws `invalid_username` or `incorrect_password`. */
  verify(login: string, password: string): Promise<Caller>;
}

export interface AttemptWindow {
  readonly minute: number;
  readonly endsAt: number;
}

/** Attempts per bucket (address, login) in the current window, shared by every instance on the store. */
export interface AttemptCounter {
  /** Counts one attempt in each bucket, atomically, and returns the counts including it. */
  count(buckets: readonly string[], now: number): Promise<{ counts: number[]; window: AttemptWindow }>;
  /** The window when any bucket is at the limit now, without counting (a known credential is refused then). */
  blocked(buckets: readonly string[], now: number): Promise<AttemptWindow | undefined>;
  /** Takes back one attempt of that window (a correct password, or a check the database could not finish). */
  uncount(buckets: readonly string[], window: AttemptWindow): Promise<void>;
}

export interface LoginChecks {
  readonly credentials: Credentials;
  readonly attempts: AttemptCounter;
  /** The buckets one attempt counts in. */
  readonly bucketsOf: (ip: string, login: string) => string[];
}

/** Failed or undecided attempts allowed per address and per login in one calendar minute. */
export const LOGIN_ATTEMPT_LIMIT = 50;
/** Attempts after this many in the minute wait before their check (250 ms doubling, at most 4 s). */
const SLOW_AFTER = 5;

const isCredentialError = (err: unknown) =>
  err instanceof ApiError && (err.code === 'invalid_username' || err.code === 'incorrect_password');

const tooMany = (w: AttemptWindow, now: number) =>
  new ApiError('rest_too_many_attempts', 'Too many failed login attempts. Try again later.', {}, undefined, {
    'Retry-After': Math.max(1, Math.ceil((w.endsAt - now) / 1000)),
  });

/**
 * Reads `Authorization: Basic …` and limits password guessing (policy in events/README.md). Every attempt whose
 * credential is not already known good is counted BEFORE its password is checked, per address and per login, so
 * a parallel burst cannot outrun the count: past the limit an attempt is refused without being checked. A correct
 * password takes its attempt back; a wrong one keeps it. Once a bucket is over the limit even a known-good
 * credential is refused until the minute ends, or a guess that happens to be right would get through.
 */
export function basicAuth(checks: LoginChecks, sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))) {
  return async function resolveCaller(header: string | undefined, ip: string, now: number): Promise<Caller | null> {
    if (!header) return null;
    const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
    // Bearer and other schemes belong to auth plugins; like WordPress without one, they are ignored.
    if (!m) return null;
    const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) throw new ApiError('invalid_username', 'Unknown username. Check again or try your email address.');
    const login = decoded.slice(0, colon);
    const password = decoded.slice(colon + 1);
    const buckets = checks.bucketsOf(ip, login);

    const known = await checks.credentials.known(login, password);
    if (known) {
      const window = await checks.attempts.blocked(buckets, now);
      if (window !== undefined) throw tooMany(window, now);
      return known;
    }
    const { counts, window } = await checks.attempts.count(buckets, now);
    const before = Math.max(...counts) - 1;
    if (before >= LOGIN_ATTEMPT_LIMIT) throw tooMany(window, now);
    if (before >= SLOW_AFTER) await sleep(Math.min(4000, 250 * 2 ** (before - SLOW_AFTER)));
    try {
      const caller = await checks.credentials.verify(login, password);
      await checks.attempts.uncount(buckets, window);
      return caller;
    } catch (err) {
      // Only a wrong login or password is a failed attempt; a database error decided nothing.
      if (!isCredentialError(err)) await checks.attempts.uncount(buckets, window).catch(() => {});
      throw err;
    }
  };
}
