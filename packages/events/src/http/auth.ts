import type { Caller } from './route.ts';
import { ApiError } from './errors.ts';

export type Authenticate = (login: string, password: string) => Promise<Caller>;

/**
 * Reads `Authorization: Basic …` and slows a burst of failures from one address: after 5 failures in a minute each
 * further attempt waits (250 ms doubling, at most 4 s) and past 50 it is refused with 429 until the minute passes.
 */
export function basicAuth(authenticate: Authenticate, sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))) {
  const failures = new Map<string, { count: number; since: number }>();
  return async function resolveCaller(header: string | undefined, ip: string, now: number): Promise<Caller | null> {
    if (!header) return null;
    const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
    // Bearer and other schemes belong to auth plugins; like WordPress without one, they are ignored.
    if (!m) return null;
    const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) throw new ApiError('invalid_username', 'Unknown username. Check again or try your email address.');
    let entry = failures.get(ip);
    if (entry && now - entry.since > 60_000) { failures.delete(ip); entry = undefined; }
    if (entry && entry.count >= 50) throw new ApiError('rest_too_many_attempts', 'Too many failed login attempts. Try again later.');
    if (entry && entry.count >= 5) await sleep(Math.min(4000, 250 * 2 ** (entry.count - 5)));
    try {
      return await authenticate(decoded.slice(0, colon), decoded.slice(colon + 1));
    } catch (err) {
      if (failures.size > 50_000) failures.clear();
      const e = failures.get(ip) ?? { count: 0, since: now };
      e.count++;
      failures.set(ip, e);
      throw err;
    }
  };
}
