// Errors that mean "the database cannot be reached right now" rather than "this request is wrong": the service answers
// them with 503 and Retry-After, and the pool reconnects by itself once the server is back.
import { isSqliteBusy } from './sqlite-writes.ts';

/** Socket-level failures while connecting or talking to the server. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/**
 * PostgreSQL SQLSTATEs of an outage: class 08 (connection exception), 57P01–57P03 (admin or crash shutdown, cannot
 * connect now: starting up or shutting down) and 53300 (too many connections).
 */
const PG_UNAVAILABLE = /^(08\d{3}|57P0[1-3]|53300)$/;

/** Messages of node-postgres for a connection that went away without a SQLSTATE. */
const PG_MESSAGES =
  /^(Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect|Client was closed)/;

/**
 * True when `err` says the store is unreachable or restarting (either store: SQLite's busy or locked codes, extended
 * ones included, after the busy timeout mean another process holds the lock, which also passes).
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (err === null || typeof err !== 'object') return false;
  const { code, message } = err as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || PG_UNAVAILABLE.test(code))) return true;
  if (isSqliteBusy(err)) return true;
  return typeof message === 'string' && PG_MESSAGES.test(message);
}
