import type SQLite from 'better-sqlite3';
import { SqliteDialect, SqliteDriver, type DatabaseConnection, type Driver, type SqliteDialectConfig } from 'kysely';

/** How long a write waits for another connection's (or process's) write lock before it is answered 503. */
export const SQLITE_BUSY_TIMEOUT_MS = 5000;

/** SQLite's busy and locked result codes, extended ones included (SQLITE_BUSY_SNAPSHOT, _RECOVERY, _TIMEOUT, SQLITE_LOCKED_*). */
const BUSY_CODE = /^SQLITE_(BUSY|LOCKED)(_[A-Z]+)?$/;

export const isSqliteBusy = (err: unknown): boolean =>
  err !== null && typeof err === 'object' && typeof (err as { code?: unknown }).code === 'string' && BUSY_CODE.test((err as { code: string }).code);

/**
 * One try at `BEGIN IMMEDIATE`: SQLITE_BUSY at once when another connection holds the write lock. A deferred
 * `BEGIN` (Kysely's) reads first and asks for the lock at its first write; when another process committed meanwhile
 * its snapshot is stale and SQLite answers SQLITE_BUSY_SNAPSHOT whatever the busy timeout. Taking the lock first
 * leaves nothing to fail later. The try does not wait (busy_timeout 0 for it): better-sqlite3 would wait
 * synchronously while holding Kysely's only connection, stalling every request of this process.
 * `retryWhileBusy` waits between tries instead, with the connection released.
 */
export function beginImmediate(sqlite: SQLite.Database): void {
  const restore = sqlite.pragma('busy_timeout', { simple: true }) as number;
  sqlite.pragma('busy_timeout = 0');
  try {
    sqlite.exec('begin immediate');
  } finally {
    sqlite.pragma(`busy_timeout = ${restore}`);
  }
}

class ImmediateSqliteDriver extends SqliteDriver {
  constructor(config: SqliteDialectConfig, private readonly sqlite: SQLite.Database) { super(config); }
  override async beginTransaction(_connection: DatabaseConnection): Promise<void> { beginImmediate(this.sqlite); }
}

/** Kysely's SQLite dialect with every transaction begun IMMEDIATE. The service opens transactions only to write. */
export class ImmediateSqliteDialect extends SqliteDialect {
  constructor(private readonly config: SqliteDialectConfig, private readonly sqlite: SQLite.Database) { super(config); }
  override createDriver(): Driver { return new ImmediateSqliteDriver(this.config, this.sqlite); }
}

export interface BusyRetryOptions {
  readonly timeoutMs: number;
  readonly sleep?: (ms: number) => Promise<void>;
}

export const defaultBusyRetryOptions: BusyRetryOptions = { timeoutMs: SQLITE_BUSY_TIMEOUT_MS };

const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Runs a whole transaction again while SQLite answers busy, for up to `timeoutMs`; then the busy error stands
 * (503, db/unavailable.ts). A busy transaction was rolled back (or never began), so running it again is safe. Tries
 * come 1 ms apart, doubling up to 8 ms, plus jitter so that two processes do not retry in step.
 * @example await retryWhileBusy(() => db.transaction().execute(fn))
 */
export async function retryWhileBusy<T>(run: () => Promise<T>, opts: BusyRetryOptions = defaultBusyRetryOptions): Promise<T> {
  const sleep = opts.sleep ?? defaultSleep;
  const deadline = Date.now() + opts.timeoutMs;
  for (let wait = 1; ; wait = Math.min(wait * 2, 8)) {
    try {
      return await run();
    } catch (err) {
      if (!isSqliteBusy(err) || Date.now() >= deadline) throw err;
    }
    await sleep(wait + Math.random() * wait);
  }
}
