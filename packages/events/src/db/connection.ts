import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import {
  type Dialect,
  Kysely,
  Migrator,
  type LogEvent,
  PostgresAdapter,
  PostgresDialect,
  sql,
  type Migration,
  type MigrationProvider,
} from 'kysely';
import type { Database } from './schema.ts';
import { initialMigration } from './migrations/001-initial.ts';
import { cachingDatabase } from './statement-cache.ts';
import { ImmediateSqliteDialect, SQLITE_BUSY_TIMEOUT_MS } from './sqlite-writes.ts';
import { TwoHandleSqliteDialect } from './sqlite-read-handle.ts';
import { preparingPool, type PreparingPool } from './pg-prepared.ts';
import { termCountsMigration } from './migrations/002-term-counts.ts';
import { termLinksIndexMigration } from './migrations/003-term-links-index.ts';
import { changeNotifyMigration } from './migrations/004-change-notify.ts';
import { attachmentsMigration } from './migrations/005-attachments.ts';
import { loginAttemptsMigration } from './migrations/006-login-attempts.ts';
import { termNamesRepeatMigration } from './migrations/007-term-names-repeat.ts';
import { notifyTableMigration } from './migrations/008-notify-table.ts';
import { recurrenceMigration } from './migrations/009-recurrence.ts';
import { occurrenceExclusionsMigration } from './migrations/010-occurrence-exclusions.ts';
import { rowIdCeilingMigration } from './migrations/011-row-id-ceiling.ts';
import { termOneReservedMigration } from './migrations/012-term-one-reserved.ts';
import { postGuidMigration } from './migrations/013-post-guid.ts';
import { userUrlMigration } from './migrations/014-user-url.ts';
import { slugHintsMigration } from './migrations/015-slug-hints.ts';
import { icalImportMigration } from './migrations/016-ical-import.ts';
import { webhooksMigration } from './migrations/017-webhooks.ts';
import { tecLinksMigration } from './migrations/018-tec-links.ts';
import { pgChangeSignal, sqliteChangeSignal, type ChangeSignal } from './change-signal.ts';
import { ConnectionLosses, isDatabaseUnavailable } from './unavailable.ts';

export type DbKind = 'sqlite' | 'postgres';

/** Prints queries slower than `ms` to stderr (a diagnostic, config `slowQueryMs`); none when 0. */
const slowQueryLog = (ms: number) =>
  ms > 0
    ? (e: LogEvent) => {
        if (e.queryDurationMillis >= ms)
          process.stderr.write(`slow query ${e.queryDurationMillis.toFixed(1)} ms: ${e.query.sql}\n`);
      }
    : undefined;

export interface StoreOptions {
  /** Told when PostgreSQL's change listener loses its connection; it reconnects by itself and caches are bypassed meanwhile. */
  readonly onChangeListenerError?: (err: Error) => void;
  /** From the parsed configuration (config/config.ts); defaults: off and NORMAL. */
  readonly slowQueryMs?: number;
  readonly sqliteSync?: 'NORMAL' | 'FULL';
}

export interface Store {
  readonly db: Kysely<Database>;
  readonly kind: DbKind;
  /** Changes when another connection or process committed a write (for caches). */
  readonly changes: ChangeSignal;
  /** True when `err` means the store is unreachable or restarting (503 with Retry-After, not 500). */
  isUnavailable(err: unknown): boolean;
  close(): Promise<void>;
}

/** Pragmas every handle on the file needs. */
function configureSqlite(sqlite: SQLite.Database, sync: 'NORMAL' | 'FULL'): SQLite.Database {
  // WAL with synchronous=NORMAL: a commit is in the WAL (the OS page cache) before the call returns, so a killed
  // process loses nothing; only a power cut can drop the last commits. `sqliteSync: 'FULL'` trades speed for that.
  // WAL also lets the read handle read beside the writer's open transaction.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma(`synchronous = ${sync}`);
  // Statements outside a transaction wait up to the timeout for another process's write lock; transactions
  // take the lock first and are retried while it is busy, without blocking the event loop (sqlite-writes.ts).
  sqlite.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
  sqlite.pragma('foreign_keys = ON');
  return sqlite;
}

/** Numbered migrations; the Kysely migration table records which ran, so the schema version is checked on start. */
function migrations(kind: DbKind): Record<string, Migration> {
  return {
    '001-initial': initialMigration(kind),
    '002-term-counts': termCountsMigration,
    '003-term-links-index': termLinksIndexMigration,
    '004-change-notify': changeNotifyMigration(kind),
    '005-attachments': attachmentsMigration(kind),
    '006-login-attempts': loginAttemptsMigration,
    '007-term-names-repeat': termNamesRepeatMigration,
    '008-notify-table': notifyTableMigration(kind),
    '009-recurrence': recurrenceMigration(kind),
    '010-occurrence-exclusions': occurrenceExclusionsMigration,
    '011-row-id-ceiling': rowIdCeilingMigration(kind),
    '012-term-one-reserved': termOneReservedMigration(kind),
    '013-post-guid': postGuidMigration,
    '014-user-url': userUrlMigration,
    '015-slug-hints': slugHintsMigration(kind),
    '016-ical-import': icalImportMigration,
    '017-webhooks': webhooksMigration(kind),
    '018-tec-links': tecLinksMigration,
  };
}

class StaticProvider implements MigrationProvider {
  constructor(private readonly kind: DbKind) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    return migrations(this.kind);
  }
}

/**
 * Opens `sqlite:PATH` (creating its folder) or `postgres://…` and applies pending migrations.
 * @example const store = await openStore('sqlite:./data/events.sqlite')
 */
export async function openStore(url: string, opts: StoreOptions = {}): Promise<Store> {
  let db: Kysely<Database>;
  let kind: DbKind;
  let prepared: PreparingPool | undefined;
  let sqliteHandle: SQLite.Database | undefined;
  let readHandle: SQLite.Database | undefined;
  let dialect: Dialect;
  let isUnavailable = isDatabaseUnavailable;
  const sync = opts.sqliteSync ?? 'NORMAL';
  const log = slowQueryLog(opts.slowQueryMs ?? 0);
  if (url.startsWith('sqlite:')) {
    kind = 'sqlite';
    const path = url.slice('sqlite:'.length);
    if (path !== ':memory:') mkdirSync(dirname(resolve(path)), { recursive: true });
    const sqlite = configureSqlite(new SQLite(path), sync);
    sqliteHandle = sqlite;
    // A file gets a second handle for reads (sqlite-read-handle.ts); `:memory:` is private to its one handle.
    if (path === ':memory:') {
      dialect = new ImmediateSqliteDialect({ database: cachingDatabase(sqlite) }, sqlite);
    } else {
      readHandle = configureSqlite(new SQLite(path), sync);
      dialect = new TwoHandleSqliteDialect({
        reader: cachingDatabase(readHandle),
        writer: cachingDatabase(sqlite),
        rawWriter: sqlite,
      });
    }
    db = new Kysely<Database>({ dialect, log });
  } else {
    kind = 'postgres';
    // A server that accepts TCP but never answers would otherwise hold requests forever; 5 s then 503.
    const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 5000 });
    const losses = new ConnectionLosses();
    isUnavailable = (err) => losses.explains(err);
    // node-postgres emits 'error' on a client whose server went away (57P01 on restart, a reset socket); without a
    // listener that event kills the process. The pool listens only on idle clients, so every client gets one for
    // the time it is checked out: its running query rejects (503 to the caller) and the pool drops the broken
    // client on release, connecting afresh (prepared statements are re-prepared per connection, pg-prepared.ts).
    pool.on('error', () => {
      // An idle client lost: the pool removes it by itself.
      losses.lost();
    });
    pool.on('connect', (client) => {
      client.on('error', () => {
        // See above: the query in progress reports it.
        losses.lost();
      });
    });
    prepared = preparingPool(pool, (err) => {
      if (isDatabaseUnavailable(err)) losses.lost();
    });
    db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: prepared }), log });
  }
  const migrator = new Migrator({ db, provider: new StaticProvider(kind) });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    await db.destroy();
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`database migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (prepared) prepared.enabled = true;
  if (kind === 'sqlite') {
    // Planner statistics, sampled so start-up stays fast on big files: without them SQLite drives event lists from
    // the posts index instead of the start-date index.
    // On the writer handle directly: through Kysely the pragma, a read, would go to the reader handle.
    sqliteHandle!.pragma('analysis_limit = 1000');
    sqliteHandle!.exec('analyze');
  }
  let changes: ChangeSignal;
  try {
    // The reader's data_version moves on every commit but its own (it never writes): this process's too, which is
    // only more cautious, since those bump their generation anyway.
    changes = sqliteHandle
      ? sqliteChangeSignal(readHandle ?? sqliteHandle)
      : await pgChangeSignal(url, { onError: opts.onChangeListenerError });
  } catch (err) {
    await db.destroy();
    throw err;
  }
  return {
    db,
    kind,
    changes,
    isUnavailable,
    close: async () => {
      await changes.close();
      await db.destroy();
    },
  };
}

/** True when `db` (or a transaction on it) talks to PostgreSQL. */
export const isPostgres = (db: Kysely<Database>): boolean => db.getExecutor().adapter instanceof PostgresAdapter;

/** True when the error is a unique-index violation in either store. */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string } | null;
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/**
 * Serialises writers that would compete for the same unique key (a slug, a term name) inside the current
 * PostgreSQL transaction, so they read each other's committed rows instead of failing and retrying.
 * SQLite already runs one writer at a time.
 */
export async function lockKey(db: Kysely<Database>, key: string): Promise<void> {
  if (isPostgres(db)) {
    await sql`select pg_advisory_xact_lock(hashtext(${key}))`.execute(db);
  }
}
