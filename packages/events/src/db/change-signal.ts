import type SQLite from 'better-sqlite3';
import pg from 'pg';

/** The PostgreSQL channel that migration 004's triggers notify after every committed change to the calendar tables. */
export const CHANGE_CHANNEL = 'events_changed';

/**
 * Tells cached readers that the database changed under them: a number that differs from its last value whenever a
 * write may have committed through any other connection, in this process or another (several instances on one
 * PostgreSQL, or `events user …` beside a running server). This process's own writes bump their generation directly.
 */
export interface ChangeSignal {
  read(): number;
  close(): Promise<void>;
}

/**
 * SQLite's `data_version` changes for a connection whenever another connection commits, and reading it touches
 * only the shared WAL index, so it is checked on every read.
 */
export function sqliteChangeSignal(sqlite: SQLite.Database): ChangeSignal {
  const stmt = sqlite.prepare('pragma data_version').pluck();
  return { read: () => stmt.get() as number, close: async () => {} };
}

/**
 * Ends a listening client for good. It keeps a no-op 'error' listener: a dying connection may still report its
 * error after this, and an 'error' event without a listener would end the process.
 */
function dispose(c: pg.Client | undefined): Promise<void> {
  if (c === undefined) return Promise.resolve();
  c.removeAllListeners();
  c.on('error', () => {});
  return c.end().catch(() => {});
}

export interface PgSignalOptions {
  /** Wait before listening again after the listening connection failed. */
  readonly retryMs?: number;
  readonly onError?: (err: Error) => void;
}

/**
 * One extra connection LISTENs on the change channel; each notification advances the number. While that connection
 * is down a change could go unseen, so every read then answers a new number: caches rebuild until it is back.
 */
export function pgChangeSignal(connectionString: string, opts: PgSignalOptions = {}): Promise<ChangeSignal> {
  const retryMs = opts.retryMs ?? 1000;
  let version = 0;
  let listening = false;
  let closed = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;

  const lost = (err?: Error) => {
    if (err) opts.onError?.(err);
    listening = false;
    version++;
    void dispose(client);
    client = undefined;
    if (!closed && retry === undefined) {
      retry = setTimeout(() => { retry = undefined; listen().catch(() => {}); }, retryMs);
      retry.unref();
    }
  };
  const listen = async (): Promise<void> => {
    const c = new pg.Client({ connectionString });
    client = c;
    c.on('error', lost);
    c.on('end', () => { if (client === c) lost(); });
    c.on('notification', () => { version++; });
    try {
      await c.connect();
      await c.query(`listen ${CHANGE_CHANNEL}`);
    } catch (err) {
      if (client === c) lost(err as Error);
      throw err;
    }
    // Anything committed before LISTEN took effect is behind us; count it as a change.
    version++;
    listening = true;
  };

  return listen().then(() => ({
    read: () => (listening ? version : ++version),
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      const c = client;
      client = undefined;
      listening = false;
      if (c) await dispose(c);
    },
  }));
}
