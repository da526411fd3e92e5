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
  /** Changes to any data a response shows (`calendar`, the default), to users and their passwords, or a login bucket
   * reaching the attempt limit (`logins`). Each topic's number moves at least when its data may have changed. */
  read(topic?: ChangeTopic): number;
  close(): Promise<void>;
}

export type ChangeTopic = 'calendar' | 'users' | 'logins';
const TOPICS: readonly ChangeTopic[] = ['calendar', 'users', 'logins'];

/** The tables whose notifications (payload: the table name, migration 008) move `users` and `logins`. */
const TOPIC_TABLES: Readonly<Record<Exclude<ChangeTopic, 'calendar'>, readonly string[]>> = {
  users: ['users', 'app_passwords'],
  logins: ['login_attempts'],
};

/**
 * SQLite's `data_version` changes for a connection whenever another connection commits, and reading it touches
 * only the shared WAL index, so it is checked on every read.
 */
export function sqliteChangeSignal(sqlite: SQLite.Database): ChangeSignal {
  // One number for every topic: a commit from elsewhere may have touched any table.
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
 * One extra connection LISTENs on the change channel; each notification advances the numbers of its topics. While
 * that connection is down a change could go unseen, so every read then answers a new number: caches rebuild until it
 * is back.
 */
export function pgChangeSignal(connectionString: string, opts: PgSignalOptions = {}): Promise<ChangeSignal> {
  const retryMs = opts.retryMs ?? 1000;
  const versions: Record<ChangeTopic, number> = { calendar: 0, users: 0, logins: 0 };
  const moveAll = () => { for (const t of TOPICS) versions[t]++; };
  /** The payload names the table (migration 008); an empty one (before it) may be any table. */
  const notified = (table: string) => {
    if (table === '') return moveAll();
    if (TOPIC_TABLES.users.includes(table)) versions.users++;
    // A login bucket at its limit says nothing to cached responses.
    if (TOPIC_TABLES.logins.includes(table)) versions.logins++;
    else versions.calendar++;
  };
  let listening = false;
  let closed = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;

  const lost = (err?: Error) => {
    if (err) opts.onError?.(err);
    listening = false;
    moveAll();
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
    c.on('notification', (n) => notified(n.payload ?? ''));
    try {
      await c.connect();
      await c.query(`listen ${CHANGE_CHANNEL}`);
    } catch (err) {
      if (client === c) lost(err as Error);
      throw err;
    }
    // Anything committed before LISTEN took effect is behind us; count it as a change.
    moveAll();
    listening = true;
  };

  return listen().then(() => ({
    read: (topic: ChangeTopic = 'calendar') => (listening ? versions[topic] : ++versions[topic]),
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
