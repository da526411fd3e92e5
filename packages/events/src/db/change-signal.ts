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
  /**
   * Read-your-writes across instances: a token for the writes this process has committed so far (undefined when
   * it cannot tell). `catchUp(token)` on any instance of the same database returns once every change committed
   * before the token was handed out has moved that instance's `read()`, so its caches no longer hide them.
   */
  writeToken(): Promise<string | undefined>;
  catchUp(token: string): Promise<void>;
  close(): Promise<void>;
}

export type ChangeTopic = 'calendar' | 'users' | 'logins';
const TOPICS: readonly ChangeTopic[] = ['calendar', 'users', 'logins'];

/** The tables whose notifications (payload: the table name, migration 008) move `users` and `logins`. */
const TOPIC_TABLES: Readonly<Record<Exclude<ChangeTopic, 'calendar'>, readonly string[]>> = {
  users: ['users', 'app_passwords'],
  logins: ['login_attempts'],
};

/** The listening connection's application_name in pg_stat_activity. */
export const CHANGE_LISTENER_NAME = 'events-change-listener';

/** What SQLite instances hand out as a write token: any value reads fresh there. */
const SQLITE_TOKEN = '0';

/**
 * SQLite's `data_version` changes for a connection whenever another connection commits, and reading it touches
 * only the shared WAL index, so it is checked on every read.
 */
export function sqliteChangeSignal(sqlite: SQLite.Database): ChangeSignal {
  // One number for every topic: a commit from elsewhere may have touched any table.
  const stmt = sqlite.prepare('pragma data_version').pluck();
  // `read()` already sees every commit of every process at once: there is never anything to wait for.
  return {
    read: () => stmt.get() as number,
    writeToken: async () => SQLITE_TOKEN,
    catchUp: async () => {},
    close: async () => {},
  };
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

/** The WAL insert position: after a commit returned, it is past that commit's record. */
const WAL_POSITION = 'select pg_current_wal_insert_lsn()::text as lsn';

/** A PostgreSQL LSN (`16/B374D848`) as a number that orders like the WAL; a malformed token reads as 0 (no wait). */
export function parseLsn(text: string): bigint {
  const m = /^([0-9A-Fa-f]{1,8})\/([0-9A-Fa-f]{1,8})$/.exec(text.trim());
  return m === null ? 0n : (BigInt(`0x${m[1]}`) << 32n) | BigInt(`0x${m[2]}`);
}

export const formatLsn = (lsn: bigint): string =>
  `${(lsn >> 32n).toString(16).toUpperCase()}/${(lsn & 0xffffffffn).toString(16).toUpperCase()}`;

export interface PgSignalOptions {
  /** Wait before listening again after the listening connection failed. */
  readonly retryMs?: number;
  readonly onError?: (err: Error) => void;
  /** How long `catchUp` waits for the listening connection before it drops every cached answer instead. */
  readonly catchUpMs?: number;
}

/**
 * One extra connection LISTENs on the change channel; each notification advances the numbers of its topics. While
 * that connection is down a change could go unseen, so every read then answers a new number: caches rebuild until it
 * is back.
 */
export function pgChangeSignal(connectionString: string, opts: PgSignalOptions = {}): Promise<ChangeSignal> {
  const retryMs = opts.retryMs ?? 1000;
  const catchUpMs = opts.catchUpMs ?? 1000;
  const versions: Record<ChangeTopic, number> = { calendar: 0, users: 0, logins: 0 };
  const moveAll = () => {
    for (const t of TOPICS) versions[t]++;
  };
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
      retry = setTimeout(() => {
        retry = undefined;
        listen().catch(() => {});
      }, retryMs);
      retry.unref();
    }
  };
  const listen = async (): Promise<void> => {
    // Named, so an operator (and a test) can tell the listener in pg_stat_activity: its last query is not always LISTEN.
    const c = new pg.Client({ connectionString, application_name: CHANGE_LISTENER_NAME });
    client = c;
    c.on('error', lost);
    c.on('end', () => {
      if (client === c) lost();
    });
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

  // The highest WAL position a query on the listening connection returned: every notification of a transaction
  // committed before it was read has been received (PostgreSQL sends pending notifications before a query's answer).
  let caughtUp = 0n;
  const queryPosition = async (): Promise<bigint> =>
    parseLsn((await client!.query<{ lsn: string }>(WAL_POSITION)).rows[0]!.lsn);
  // One query at a time on the one listening connection (pg queues a second one, deprecated since pg 8.13 and
  // refused from pg 9). A caller that finds a query running shares the next one, which starts after that one ends
  // and so after the caller's own commit: its position is never earlier than what the caller committed.
  let running: Promise<bigint> | undefined;
  let next: Promise<bigint> | undefined;
  const walPosition = (): Promise<bigint> => {
    if (running === undefined) {
      const p = queryPosition();
      running = p;
      const done = () => {
        if (running === p) running = undefined;
      };
      p.then(done, done);
      return p;
    }
    next ??= running
      .then(
        () => undefined,
        () => undefined,
      )
      .then(() => {
        next = undefined;
        return walPosition();
      });
    return next;
  };

  return listen().then(() => ({
    read: (topic: ChangeTopic = 'calendar') => (listening ? versions[topic] : ++versions[topic]),
    async writeToken() {
      if (!listening) return undefined;
      try {
        return formatLsn(await walPosition());
      } catch {
        return undefined;
      }
    },
    async catchUp(token: string) {
      const wanted = parseLsn(token);
      // While not listening every read already answers a new number: caches are bypassed, nothing to wait for.
      if (!listening || wanted <= caughtUp) return;
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((r) => {
        timer = setTimeout(() => r('late'), catchUpMs);
      });
      try {
        const at = await Promise.race([walPosition(), late]);
        if (at !== 'late') {
          if (at > caughtUp) caughtUp = at;
          return;
        }
      } catch {
        // The connection failed: `lost` moved every number already.
      } finally {
        clearTimeout(timer);
      }
      // The listening connection is slow: drop every cached answer instead, so this read is built from the
      // database, which holds the write.
      moveAll();
    },
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
