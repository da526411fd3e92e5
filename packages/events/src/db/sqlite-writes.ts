import type SQLite from 'better-sqlite3';
import { SqliteDialect, SqliteDriver, type DatabaseConnection, type Driver, type SqliteDialectConfig } from 'kysely';

/** How long a write waits for another connection's (or process's) write lock before it is answered 503. */
export const SQLITE_BUSY_TIMEOUT_MS = 5000;

/** SQLite's busy and locked result codes, extended ones included (SQLITE_BUSY_SNAPSHOT, _RECOVERY, _TIMEOUT, SQLITE_LOCKED_*). */
const BUSY_CODE = /^SQLITE_(BUSY|LOCKED)(_[A-Z]+)?$/;

export const isSqliteBusy = (err: unknown): boolean =>
  err !== null &&
  typeof err === 'object' &&
  typeof (err as { code?: unknown }).code === 'string' &&
  BUSY_CODE.test((err as { code: string }).code);

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
  constructor(
    config: SqliteDialectConfig,
    private readonly sqlite: SQLite.Database,
  ) {
    super(config);
  }
  override async beginTransaction(_connection: DatabaseConnection): Promise<void> {
    beginImmediate(this.sqlite);
  }
}

/** Kysely's SQLite dialect with every transaction begun IMMEDIATE. The service opens transactions only to write. */
export class ImmediateSqliteDialect extends SqliteDialect {
  constructor(
    private readonly config: SqliteDialectConfig,
    private readonly sqlite: SQLite.Database,
  ) {
    super(config);
  }
  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.config, this.sqlite);
  }
}

export interface BusyRetryOptions {
  readonly timeoutMs: number;
  readonly sleep?: (ms: number) => Promise<void>;
}

export const defaultBusyRetryOptions: BusyRetryOptions = { timeoutMs: SQLITE_BUSY_TIMEOUT_MS };

const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * This process's SQLite write transactions, one at a time in arrival order (SQLite has one writer; Kysely's one
 * connection ran them one at a time already). Only the first waits for another process's lock, so the timeout
 * measures that lock, not this process's own queue: 400 writes polling side by side all started their 5 s at once.
 */
let writeQueue: Promise<unknown> = Promise.resolve();

/**
 * Runs a SQLite write transaction after this process's earlier ones, again while SQLite answers busy, until
 * the lock has been busy for `timeoutMs` without a break; then the busy error stands (503, db/unavailable.ts). A busy transaction
 * was rolled back (or never began), so running it again is safe. Tries come 1 ms apart, doubling up to 4 ms, plus
 * jitter so that two processes do not retry in step.
 * @example await retryWhileBusy(() => db.transaction().execute(fn))
 */
export function retryWhileBusy<T>(run: () => Promise<T>, opts: BusyRetryOptions = defaultBusyRetryOptions): Promise<T> {
  const turn = writeQueue.then(() => runUntilFree(run, opts));
  writeQueue = turn.catch(() => {});
  return turn;
}

/** A busy answer later than this after the previous one starts a new busy spell. */
const SPELL_GAP_MS = 100;

/**
 * Since when the write lock has been busy without a break, as the writes at the head of the queue saw it: a write
 * that reaches the head after others gave up on the same spell gives up at once too, instead of 5 s more each.
 */
const busy = { since: 0, last: Number.NEGATIVE_INFINITY };

async function runUntilFree<T>(run: () => Promise<T>, opts: BusyRetryOptions): Promise<T> {
  const sleep = opts.sleep ?? defaultSleep;
  for (let wait = 1; ; wait = Math.min(wait * 2, 4)) {
    try {
      const out = await run();
      busy.last = Number.NEGATIVE_INFINITY;
      return out;
    } catch (err) {
      if (!isSqliteBusy(err)) throw err;
      const now = Date.now();
      if (now - busy.last > SPELL_GAP_MS) busy.since = now;
      busy.last = now;
      if (now - busy.since >= opts.timeoutMs) throw err;
    }
    await sleep(wait + Math.random() * wait);
  }
}
