import { defaultSafeFetchOptions, FetchError, safeFetch } from '../../media/index.ts';
import { TecImportError } from './tec-error.ts';
import {
  arrayAt,
  idAt,
  objectAt,
  readEvent,
  readItem,
  readUser,
  type TecEvent,
  type TecItem,
  type TecUser,
} from './tec-items.ts';

export interface TecSourceOptions {
  /** `user:app-password`, sent as Basic auth (then drafts, pending and private events are read too). */
  readonly auth: string | undefined;
  /** Loopback and private addresses (EVENTS_MEDIA_ALLOW_PRIVATE_HOSTS: intranets and tests only). */
  readonly allowPrivateHosts: boolean;
  /** Bytes read of one page at most: a longer (or endless) answer is cut there and refuses the import. */
  readonly maxPageBytes: number;
  /** Pages read per list at most (50 items each). */
  readonly maxPages: number;
  /** Each page must arrive within this. */
  readonly timeoutMs: number;
  /** Told after every page read (the CLI prints progress on stderr). */
  readonly onPage?: (list: string, page: number, pages: number) => void;
}

export const defaultTecSourceOptions: TecSourceOptions = {
  auth: undefined,
  allowPrivateHosts: false,
  maxPageBytes: 8 * 2 ** 20,
  maxPages: 2000,
  timeoutMs: 60_000,
};

/** Everything read from the source, checked into named types. */
export interface TecSite {
  /** The API root read, `…/wp-json/tribe/events/v1`. */
  readonly api: string;
  readonly categories: readonly TecItem[];
  readonly tags: readonly TecItem[];
  readonly venues: readonly TecItem[];
  readonly organizers: readonly TecItem[];
  readonly events: readonly TecEvent[];
  /** The authors: `/wp/v2/users` of the same site. */
  readonly users: TecUsers;
}

/**
 * The source's users in the richest context its credentials allow, or why none could be read (a site may hide
 * `/wp/v2/users`): then every item is written by the importing user, as before users were imported.
 */
export type TecUsers =
  | { readonly context: 'edit' | 'view'; readonly list: readonly TecUser[] }
  | { readonly context: 'none'; readonly reason: string };

const PER_PAGE = 50;
/** The most `/wp/v2/users` gives a page. */
const USERS_PER_PAGE = 100;
const PLUGIN_NAMESPACE = '/tribe/events/v1';
const NAMESPACE = `/wp-json${PLUGIN_NAMESPACE}`;
// The events list shows upcoming events unless asked for a window; this one holds every event the store can hold.
const ALL_TIME = { start_date: '1900-01-01 00:00:00', end_date: '2199-12-31 23:59:59' };
const READABLE_STATUSES = 'publish,future,draft,pending,private';

/** The API root of a site URL or of the API root itself: `https://example.com` → `https://example.com/wp-json/tribe/events/v1`. */
export function tecApiRoot(source: string): string {
  let url: URL;
  try {
    url = new URL(source);
  } catch {
    throw new TecImportError('fetch', `${source} is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new TecImportError('fetch', `${source}: only http(s) URLs are read`);
  const path = url.pathname.replace(/\/+$/, '');
  const at = path.indexOf(NAMESPACE);
  return `${url.origin}${at >= 0 ? path.slice(0, at) : path}${NAMESPACE}`;
}

async function getJson(url: string, opts: TecSourceOptions): Promise<unknown> {
  let bytes: Buffer;
  try {
    bytes = await safeFetch(url, {
      ...defaultSafeFetchOptions,
      maxBytes: opts.maxPageBytes,
      allowPrivateHosts: opts.allowPrivateHosts,
      timeoutMs: opts.timeoutMs,
      accept: 'application/json',
      what: 'answer',
      headers:
        opts.auth === undefined ? undefined : { authorization: `Basic ${Buffer.from(opts.auth).toString('base64')}` },
    });
  } catch (err) {
    if (!(err instanceof FetchError)) throw err;
    if (err.status === 401 || err.status === 403)
      throw new TecImportError(
        'auth',
        `${url}: the source answered ${err.status}${opts.auth === undefined ? ' (pass --auth user:app-password)' : ' (check the user and application password of --auth)'}`,
      );
    const tooLarge = err.message.includes('larger than the limit');
    throw new TecImportError(tooLarge ? 'too_large' : 'fetch', `${url}: ${err.message}`);
  }
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    const start = bytes.subarray(0, 60).toString('utf8').replace(/\s+/g, ' ');
    throw new TecImportError('not_json', `${url}: the answer is not JSON (it starts with "${start}")`);
  }
}

/** Every page of one list: `key` holds the items, `total_pages` says when to stop. */
async function readList<T>(
  api: string,
  list: string,
  query: Record<string, string>,
  read: (v: unknown, at: { url: string; path: string }) => T,
  opts: TecSourceOptions,
): Promise<T[]> {
  const out: T[] = [];
  for (let page = 1; ; page++) {
    const qs = new URLSearchParams({ ...query, per_page: String(PER_PAGE), page: String(page) });
    const url = `${api}/${list}?${qs.toString()}`;
    const body = objectAt(await getJson(url, opts), { url, path: '$' });
    const items = arrayAt(body[list], { url, path: `$.${list}` });
    items.forEach((v, i) => out.push(read(v, { url, path: `$.${list}[${i}]` })));
    const pages = body.total_pages === 0 ? 0 : idAt(body.total_pages, { url, path: '$.total_pages' });
    opts.onPage?.(list, page, pages);
    if (page >= pages || items.length === 0) return out;
    if (page >= opts.maxPages)
      throw new TecImportError('too_large', `${url}: ${list} has ${pages} pages; at most ${opts.maxPages} are read`);
  }
}

/** Every page of `/wp/v2/users` in one context, by id: a plain list, the last page shorter than the others. */
async function readUserPages(url: string, context: 'edit' | 'view', opts: TecSourceOptions): Promise<TecUser[]> {
  const out: TecUser[] = [];
  for (let page = 1; ; page++) {
    const qs = new URLSearchParams({ context, orderby: 'id', per_page: String(USERS_PER_PAGE), page: String(page) });
    const at = `${url}?${qs.toString()}`;
    const items = arrayAt(await getJson(at, opts), { url: at, path: '$' });
    items.forEach((v, i) => out.push(readUser(v, { url: at, path: `$[${i}]` })));
    if (items.length < USERS_PER_PAGE) return out;
    if (page >= opts.maxPages)
      throw new TecImportError('too_large', `${at}: users go past ${opts.maxPages} pages; at most that many are read`);
  }
}

/** The users of the site whose plugin API is `api`: in edit context when credentials are given, else in view. */
export async function readTecUsers(api: string, opts: TecSourceOptions): Promise<TecUsers> {
  const url = `${api.slice(0, -PLUGIN_NAMESPACE.length)}/wp/v2/users`;
  let reason = '';
  for (const context of opts.auth === undefined ? (['view'] as const) : (['edit', 'view'] as const)) {
    try {
      return { context, list: await readUserPages(url, context, opts) };
    } catch (err) {
      if (!(err instanceof TecImportError)) throw err;
      reason = err.message;
    }
  }
  return { context: 'none', reason };
}

/** Items that came twice (a list and an event's nested copy, or pages shifting while read): the first kept. */
function distinct<T extends TecItem>(items: readonly T[]): T[] {
  const seen = new Map<number, T>();
  for (const item of items) if (!seen.has(item.id)) seen.set(item.id, item);
  return [...seen.values()];
}

/**
 * Reads the lists of a site running the plugin, page by page through the safe fetch: categories and tags (empty ones
 * too), venues, organizers and the events of every status the credentials can read, in any date, and its users.
 * @example const site = await readTecSite('https://example.com', { ...defaultTecSourceOptions, auth: 'me:app pass' })
 */
export async function readTecSite(source: string, opts: TecSourceOptions): Promise<TecSite> {
  const api = tecApiRoot(source);
  const terms = { hide_empty: '0', orderby: 'id', order: 'asc' };
  const categories = await readList(api, 'categories', terms, (v, at) => readItem(v, 'name', at), opts);
  const tags = await readList(api, 'tags', terms, (v, at) => readItem(v, 'name', at), opts);
  const venues = await readList(api, 'venues', {}, (v, at) => readItem(v, 'venue', at), opts);
  const organizers = await readList(api, 'organizers', {}, (v, at) => readItem(v, 'organizer', at), opts);
  const status: Record<string, string> = opts.auth === undefined ? {} : { status: READABLE_STATUSES };
  const events = await readList(api, 'events', { ...ALL_TIME, ...status }, readEvent, opts);
  return {
    api,
    categories: distinct([...categories, ...events.flatMap((e) => e.categories)]),
    tags: distinct([...tags, ...events.flatMap((e) => e.tags)]),
    venues: distinct([...venues, ...events.flatMap((e) => e.venues)]),
    organizers: distinct([...organizers, ...events.flatMap((e) => e.organizers)]),
    events: distinct(events),
    users: await readTecUsers(api, opts),
  };
}
