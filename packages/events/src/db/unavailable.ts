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
  'ECONNABORTED',
  'ENOTCONN',
  'ESHUTDOWN',
  'EADDRNOTAVAIL',
  // Node's stream codes when the driver writes to a socket the server has just closed.
  'ERR_STREAM_DESTROYED',
  'ERR_STREAM_WRITE_AFTER_END',
  'ERR_SOCKET_CLOSED',
]);

/**
 * PostgreSQL SQLSTATEs of an outage: class 08 (connection exception), 57P01–57P03 (admin or crash shutdown, cannot
 * connect now: starting up or shutting down) and 53300 (too many connections).
 */
const PG_UNAVAILABLE = /^(08\d{3}|57P0[1-3]|53300)$/;

/** Messages of node-postgres for a connection that went away without a SQLSTATE. */
const PG_MESSAGES =
  /^(Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect|Client was closed|Query read timeout|Received unexpected \w+ message from backend)/;

/** How deep `cause` and `AggregateError.errors` are followed: drivers wrap once or twice, never more. */
const MAX_DEPTH = 4;

/**
 * True when `err` says the store is unreachable or restarting (either store: SQLite's busy or locked codes, extended
 * ones included, after the busy timeout mean another process holds the lock, which also passes).
 */
export const isDatabaseUnavailable = (err: unknown): boolean => unavailableAt(err, 0);

function unavailableAt(err: unknown, depth: number): boolean {
  if (err === null || typeof err !== 'object' || depth > MAX_DEPTH) return false;
  const { code, message, cause, errors } = err as {
    code?: unknown;
    message?: unknown;
    cause?: unknown;
    errors?: unknown;
  };
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || PG_UNAVAILABLE.test(code))) return true;
  if (isSqliteBusy(err)) return true;
  if (typeof message === 'string' && PG_MESSAGES.test(message)) return true;
  // A wrapped failure (`new Error(…, { cause })`, a connection timeout around the socket's error) or every address of
  // a host refusing (Node's AggregateError when connecting to a name with several addresses).
  if (unavailableAt(cause, depth + 1)) return true;
  return Array.isArray(errors) && errors.length > 0 && errors.every((e) => unavailableAt(e, depth + 1));
}

/** After a PostgreSQL connection was lost, errors the driver raises while it settles count as the outage this long. */
export const OUTAGE_WINDOW_MS = 5000;

/**
 * Remembers when a connection to the server was last lost, so an error of a shape no list above foresaw, raised by a
 * request that was running on a dying connection, is answered as the outage (503, retry) rather than as a bug (500).
 */
export class ConnectionLosses {
  private last = -Infinity;

  constructor(private readonly clock: () => number = Date.now) {}

  /** Called by the pool's and each client's `error` listener. */
  lost(): void {
    this.last = this.clock();
  }

  /** True for an error the lists recognise, or any error within the window after a lost connection. */
  explains(err: unknown): boolean {
    return isDatabaseUnavailable(err) || this.clock() - this.last <= OUTAGE_WINDOW_MS;
  }
}
