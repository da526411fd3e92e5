import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { pino } from 'pino';
import { parseConfig } from '../../src/config/index.ts';
import { openStore, type Store } from '../../src/db/index.ts';
import { createEventsApp } from '../../src/app.ts';
import { MIN_GENERATION_HEADER } from '../../src/http/read-your-writes.ts';
import { userService } from '../../src/user/index.ts';

export const PG_ADMIN_URL = process.env.EVENTS_TEST_PG ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** A fresh database per test file: a temp SQLite file, or a new PostgreSQL database dropped afterwards. */
export interface StoreFactory {
  name: 'sqlite' | 'postgres';
  create(): Promise<{ url: string; dispose(): Promise<void> }>;
}

export const STORES: StoreFactory[] = [
  {
    name: 'sqlite',
    async create() {
      const dir = mkdtempSync(join(tmpdir(), 'events-test-'));
      return {
        url: `sqlite:${join(dir, 'events.sqlite')}`,
        dispose: async () => rmSync(dir, { recursive: true, force: true }),
      };
    },
  },
  {
    name: 'postgres',
    async create() {
      const name = `events_test_${randomBytes(6).toString('hex')}`;
      const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
      await admin.connect();
      await admin.query(`create database ${name}`);
      await admin.end();
      const url = PG_ADMIN_URL.replace(/\/[^/]*$/, `/${name}`);
      return {
        url,
        async dispose() {
          const c = new pg.Client({ connectionString: PG_ADMIN_URL });
          await c.connect();
          await c.query(`drop database if exists ${name} with (force)`);
          await c.end();
        },
      };
    },
  },
];

export const ROLE_LOGINS = ['administrator', 'editor', 'author', 'contributor', 'subscriber'] as const;
export type RoleLogin = (typeof ROLE_LOGINS)[number];
export const PASSWORD = 'test-app-password-1';

export interface RequestOptions {
  as?: RoleLogin | { login: string; password: string };
  query?: Record<string, string | number | boolean | readonly (string | number)[]>;
  form?: string | Record<string, unknown>;
  json?: unknown;
  body?: string;
  headers?: Record<string, string>;
}

export interface TestResponse {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are asserted field by field
  body: any;
  text: string;
}

/** Builds a form body the way PHP expects: arrays as `a[]=`, objects as `a[b]=`. */
export function formEncode(data: Record<string, unknown>, prefix = ''): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(data)) {
    const key = prefix ? `${prefix}[${k}]` : k;
    if (Array.isArray(v)) {
      v.forEach((item, i) => {
        if (item !== null && typeof item === 'object')
          parts.push(formEncode(item as Record<string, unknown>, `${key}[${i}]`));
        else parts.push(`${encodeURIComponent(`${key}[]`)}=${encodeURIComponent(String(item))}`);
      });
    } else if (v !== null && typeof v === 'object') parts.push(formEncode(v as Record<string, unknown>, key));
    else parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(v))}`);
  }
  return parts.filter(Boolean).join('&');
}

export interface Service {
  readonly base: string;
  readonly rest: string;
  readonly store: Store;
  /** The database URL, for a second instance or process on the same data. */
  readonly dbUrl: string;
  readonly userIds: Record<RoleLogin, number>;
  /** The media library folder (`EVENTS_UPLOADS_DIR`): a temporary one per service unless the test set its own. */
  readonly uploadsDir: string;
  clock: { now: number };
  request(method: string, path: string, opts?: RequestOptions): Promise<TestResponse>;
  get(path: string, opts?: RequestOptions): Promise<TestResponse>;
  post(path: string, form: Record<string, unknown>, as?: RequestOptions['as']): Promise<TestResponse>;
  close(): Promise<void>;
}

export const DEFAULT_NOW = Date.UTC(2018, 0, 10, 12, 0, 0);

interface ServiceOptions {
  timezone?: string;
  now?: number;
  env?: NodeJS.ProcessEnv;
}

/** Serves `url` with the real app on 127.0.0.1 (an ephemeral port). */
async function serve(url: string, clock: { now: number }, opts: ServiceOptions) {
  const store = await openStore(url);
  const config = parseConfig(
    { port: 0, db: url, siteUrl: 'http://wordpress.test', timezone: opts.timezone ?? 'UTC' },
    opts.env ?? {},
  );
  const app = createEventsApp({ config, store, clock: () => clock.now, logger: pino({ level: 'silent' }) });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    store,
    address,
    request: requester(address),
    close: async () => {
      await app.close();
      await store.close();
    },
  };
}

/** Starts the real service on 127.0.0.1 over a fresh store, with one user per role. */
export async function startService(factory: StoreFactory, opts: ServiceOptions = {}): Promise<Service> {
  const db = await factory.create();
  const clock = { now: opts.now ?? DEFAULT_NOW };
  // Each service gets its own uploads folder, removed on close, unless the test chose one.
  const uploadsDir = opts.env?.EVENTS_UPLOADS_DIR ?? mkdtempSync(join(tmpdir(), 'events-uploads-'));
  const instance = await serve(db.url, clock, { ...opts, env: { ...opts.env, EVENTS_UPLOADS_DIR: uploadsDir } });
  const users = userService(instance.store.db);
  const userIds = {} as Record<RoleLogin, number>;
  for (const role of ROLE_LOGINS) userIds[role] = (await users.add(role, role, { appPassword: PASSWORD })).id;
  const { store, address, request } = instance;
  return {
    base: address,
    rest: `http://wordpress.test${REST}`,
    store,
    userIds,
    clock,
    request,
    dbUrl: db.url,
    uploadsDir,
    get: (path, o) => request('GET', path, o),
    post: (path, form, as = 'administrator') => request('POST', path, { form, as }),
    async close() {
      await instance.close();
      await db.dispose();
      if (opts.env?.EVENTS_UPLOADS_DIR === undefined) rmSync(uploadsDir, { recursive: true, force: true });
    },
  };
}

/**
 * A second instance of the service over the same database as `svc`, as a deployment with several servers runs;
 * `dbUrl` reaches that database another way (through a proxy).
 */
export async function startSibling(
  svc: Service,
  opts: ServiceOptions & { dbUrl?: string } = {},
): Promise<Pick<Service, 'request' | 'get' | 'close'>> {
  const instance = await serve(opts.dbUrl ?? svc.dbUrl, svc.clock, {
    ...opts,
    env: { EVENTS_UPLOADS_DIR: svc.uploadsDir, ...opts.env },
  });
  return { request: instance.request, get: (path, o) => instance.request('GET', path, o), close: instance.close };
}

const REST = '/wp-json/tribe/events/v1';

function requester(address: string): Service['request'] {
  const rest = REST;
  return async function request(method: string, path: string, o: RequestOptions = {}): Promise<TestResponse> {
    const headers: Record<string, string> = { ...o.headers };
    if (o.as) {
      const cred = typeof o.as === 'string' ? { login: o.as, password: PASSWORD } : o.as;
      headers.authorization = `Basic ${Buffer.from(`${cred.login}:${cred.password}`).toString('base64')}`;
    }
    let body: string | undefined = o.body;
    if (o.form !== undefined) {
      body = typeof o.form === 'string' ? o.form : formEncode(o.form);
      headers['content-type'] ??= 'application/x-www-form-urlencoded';
    }
    if (o.json !== undefined) {
      body = JSON.stringify(o.json);
      headers['content-type'] ??= 'application/json';
    }
    let url = path.startsWith('http')
      ? path
      : `${address}${path.startsWith('/wp-json') || path.startsWith('/?') ? '' : rest}${path}`;
    if (o.query) {
      const qs = Object.entries(o.query)
        .flatMap(([k, v]) =>
          Array.isArray(v)
            ? v.map((x) => `${encodeURIComponent(`${k}[]`)}=${encodeURIComponent(String(x))}`)
            : [`${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`],
        )
        .join('&');
      url += (url.includes('?') ? '&' : '?') + qs;
    }
    const res = await fetch(url, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = undefined;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: res.status, headers: res.headers, body: parsed, text };
  };
}

/** Creates an event as the administrator and returns its body; fails the test on any other status. */
export async function createEvent(
  svc: Service,
  fields: Record<string, unknown>,
  as: RequestOptions['as'] = 'administrator',
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see TestResponse
): Promise<any> {
  const res = await svc.request('POST', '/events', {
    form: { start_date: '2018-01-12 10:00:00', end_date: '2018-01-12 12:00:00', ...fields },
    as,
  });
  if (res.status !== 201) throw new Error(`create event failed: ${res.status} ${res.text}`);
  return res.body;
}

export async function count(
  svc: Service,
  table: 'posts' | 'terms' | 'events' | 'event_terms' | 'event_organizers',
): Promise<number> {
  const r = await svc.store.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll().as('c'))
    .executeTakeFirstOrThrow();
  return Number(r.c);
}

/** Row counts of every table a write touches: equal before and after a refused write. */
export const countWritten = (svc: Service): Promise<number[]> =>
  Promise.all((['posts', 'terms', 'events', 'event_terms', 'event_organizers'] as const).map((t) => count(svc, t)));

/**
 * Returns once `svc` has seen every commit `store` (another connection to its database, as another process's
 * `events import …` would be) made so far. PostgreSQL tells the service by NOTIFY, asynchronously, so a read right
 * after could still come from its cache; a client sends the write's token back (read-your-writes), and so does this.
 */
export async function commitsSeen(svc: Service, store: Store): Promise<void> {
  const token = await store.changes.writeToken();
  if (token !== undefined)
    await svc.get('/events', { query: { per_page: 1 }, headers: { [MIN_GENERATION_HEADER]: token } });
}
