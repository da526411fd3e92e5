import type SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  SqliteDialect,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  type SqliteDatabase,
  type SqliteStatement,
} from 'kysely';
import { beginImmediate } from './sqlite-writes.ts';

/**
 * Two better-sqlite3 handles on one WAL file: reads outside a transaction run on `reader` at once, everything else
 * on `writer` behind one in-process mutex. WAL lets a reader see the last commit while the writer's transaction is
 * open, so a GET never waits for a long write (a 730-occurrence series held Kysely's one connection for up to 1.8 s).
 */
export interface SqliteHandles {
  readonly reader: SqliteDatabase;
  readonly writer: SqliteDatabase;
  /** The raw writer, for `BEGIN IMMEDIATE` (sqlite-writes.ts). */
  readonly rawWriter: SQLite.Database;
}

/** better-sqlite3's `readonly` is missing from Kysely's statement type; `reader` alone is true for `INSERT … RETURNING`. */
const isRead = (stmt: SqliteStatement): boolean => stmt.reader && (stmt as unknown as SQLite.Statement).readonly;

/**
 * The reader's statement, or undefined when the reader cannot prepare it: its schema may lag a migration the writer
 * just ran (SQLite checks `CREATE INDEX` names at prepare), so the writer prepares it and reports any real error.
 */
function readerStatement(reader: SqliteDatabase, sql: string): SqliteStatement | undefined {
  try {
    return reader.prepare(sql);
  } catch {
    return undefined;
  }
}

function run(stmt: SqliteStatement, parameters: readonly unknown[]): QueryResult<unknown> {
  if (stmt.reader) return { rows: stmt.all(parameters) as unknown[] };
  const { changes, lastInsertRowid } = stmt.run(parameters);
  return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
}

/** How long a transaction runs statements before letting the event loop serve other requests. */
const YIELD_EVERY_MS = 5;

/** Kysely's own mutex, as a promise chain: one holder of the writer at a time. */
class WriterMutex {
  private tail: Promise<void> = Promise.resolve();
  lock(): Promise<() => void> {
    let unlock!: () => void;
    const held = new Promise<void>((r) => {
      unlock = r;
    });
    const turn = this.tail.then(() => unlock);
    this.tail = this.tail.then(() => held);
    return turn;
  }
}

/**
 * What Kysely acquires: bound to the writer between `beginTransaction` and commit or rollback, otherwise choosing
 * per statement. A write outside a transaction takes the mutex, so it never lands inside another request's
 * transaction on the writer.
 */
class LazyConnection implements DatabaseConnection {
  /** The writer's unlock while this connection holds it for a transaction. */
  unlock: (() => void) | undefined;
  /** When this transaction last let the event loop run. */
  ranSince = performance.now();
  constructor(
    private readonly handles: SqliteHandles,
    private readonly mutex: WriterMutex,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const { sql, parameters } = query;
    if (this.unlock) {
      // Statements resolve at once, so a long transaction would run in microtasks without ever letting the event
      // loop take a request; every few ms it steps aside so reads (on the other handle) are served meanwhile.
      if (performance.now() - this.ranSince > YIELD_EVERY_MS) {
        await new Promise((r) => setImmediate(r));
        this.ranSince = performance.now();
      }
      return run(this.handles.writer.prepare(sql), parameters) as QueryResult<R>;
    }
    const stmt = readerStatement(this.handles.reader, sql);
    if (stmt !== undefined && isRead(stmt)) return run(stmt, parameters) as QueryResult<R>;
    const unlock = await this.mutex.lock();
    try {
      return run(this.handles.writer.prepare(sql), parameters) as QueryResult<R>;
    } finally {
      unlock();
    }
  }

  // eslint-disable-next-line require-yield -- the service never streams; Kysely's interface asks for the method
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not supported on this SQLite driver');
  }
}

class TwoHandleDriver implements Driver {
  private readonly mutex = new WriterMutex();
  constructor(private readonly handles: SqliteHandles) {}
  async init(): Promise<void> {}
  async acquireConnection(): Promise<DatabaseConnection> {
    return new LazyConnection(this.handles, this.mutex);
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    const c = connection as LazyConnection;
    const unlock = await this.mutex.lock();
    try {
      beginImmediate(this.handles.rawWriter);
    } catch (err) {
      unlock(); // busy: retryWhileBusy tries again later, with the writer free meanwhile
      throw err;
    }
    c.unlock = unlock;
    c.ranSince = performance.now();
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await this.end(connection as LazyConnection, 'commit');
  }
  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await this.end(connection as LazyConnection, 'rollback');
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await this.onWriter(connection, `savepoint ${name}`);
  }
  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await this.onWriter(connection, `rollback to ${name}`);
  }
  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await this.onWriter(connection, `release ${name}`);
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    // A transaction ends by commit or rollback; this only guards against a connection released while still bound.
    const c = connection as LazyConnection;
    if (c.unlock) {
      if (this.handles.rawWriter.inTransaction) this.handles.rawWriter.exec('rollback');
      c.unlock();
      c.unlock = undefined;
    }
  }

  async destroy(): Promise<void> {
    this.handles.reader.close();
    this.handles.writer.close();
  }

  private async onWriter(connection: DatabaseConnection, sql: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(sql));
  }

  private async end(c: LazyConnection, sql: 'commit' | 'rollback'): Promise<void> {
    try {
      // SQLite may have rolled back by itself (an I/O or full-disk error): the error that caused it is then reported.
      if (sql === 'commit' || this.handles.rawWriter.inTransaction) this.handles.rawWriter.exec(sql);
    } catch (err) {
      // Never hand the writer on with this transaction still open.
      if (this.handles.rawWriter.inTransaction) this.handles.rawWriter.exec('rollback');
      throw err;
    } finally {
      c.unlock?.();
      c.unlock = undefined;
    }
  }
}

/** Kysely's SQLite dialect over a reader and a writer handle; every transaction begins IMMEDIATE on the writer. */
export class TwoHandleSqliteDialect extends SqliteDialect {
  constructor(private readonly handles: SqliteHandles) {
    super({ database: handles.writer });
  }
  override createDriver(): Driver {
    return new TwoHandleDriver(this.handles);
  }
}
