import type { Database } from '../db/index.ts';

/**
 * The dump format (DESIGN in README, "Export and restore"): JSON Lines. Line 1 is the header, then one line per row
 * `{"table":"posts","row":{…}}` in TABLES order (parents before children), then the trailer `{"end":true,"rows":N}`,
 * whose absence marks a truncated file. Values are JSON numbers, strings and null, as both stores hold them.
 */
export const DUMP_FORMAT = 'events-dump';
/**
 * Bumped when the line shapes or their meaning change. Version 2 added the iCalendar import state (migration 016),
 * version 3 the webhook subscriptions (migration 017), version 4 the links of `events import tec` (migration 018); a
 * restore still reads versions 1 to 3.
 */
export const DUMP_VERSION = 4;

export interface DumpHeader {
  readonly format: typeof DUMP_FORMAT;
  readonly version: number;
  /** The store's latest migration: a dump restores only into a store at the same schema version. */
  readonly schema: string;
  readonly source: 'sqlite' | 'postgres';
  readonly exported_gmt: string;
  /** The next-id counters (the highest id handed out), so ids after a restore continue where the source's did. */
  readonly sequences: Readonly<Record<string, number>>;
}

export interface DumpRowLine {
  readonly table: DumpTable;
  readonly row: Record<string, unknown>;
}
export interface DumpTrailer {
  readonly end: true;
  readonly rows: number;
}

/**
 * Every table that holds the site's data, in an order where each row's references come before it. Left out:
 * login attempts (a minute's throttling state), the change-notification bookkeeping and `slug_hints` (a cache of
 * what `posts` holds, rebuilt on the first create of each title after a restore; migration 015).
 */
export const TABLES = [
  'users',
  'app_passwords',
  'posts',
  'attachments',
  'venues',
  'organizers',
  'events',
  'event_organizers',
  'terms',
  'event_terms',
  'event_series',
  'event_occurrences',
  // Version 2: which event each feed's VEVENT became (so a re-sync after a restore updates instead of duplicating),
  // and the subscribed feeds with their schedules.
  'ical_links',
  'ical_subscriptions',
  // Version 3: webhook subscriptions with their secrets (receivers keep verifying after a move). Not the outbox: a
  // restored store starts with no messages owed, and, last in the file, the subscriptions see no restored row as a
  // change (the outbox triggers find no subscription while posts and terms are restored).
  'webhook_subscriptions',
  // Version 4: which post or term each item of a site running the plugin became (so a re-import after a restore
  // matches by source id). No references to check: the links name posts and terms by id only.
  'tec_links',
] as const satisfies ReadonlyArray<keyof Database>;
export type DumpTable = (typeof TABLES)[number];

/** The tables each readable version carries, in file order. */
export const TABLES_OF_VERSION: Readonly<Record<number, readonly DumpTable[]>> = {
  1: TABLES.slice(0, TABLES.indexOf('ical_links')),
  2: TABLES.slice(0, TABLES.indexOf('webhook_subscriptions')),
  3: TABLES.slice(0, TABLES.indexOf('tec_links')),
  4: TABLES,
};

/** A stable row order per table (its primary key), so two exports of one store are the same file but for the header. */
export const ORDER_BY: Record<DumpTable, string> = {
  users: 'id',
  app_passwords: 'id',
  posts: 'id',
  attachments: 'post_id',
  venues: 'post_id',
  organizers: 'post_id',
  events: 'post_id',
  event_organizers: 'event_id, organizer_id',
  terms: 'id',
  event_terms: 'event_id, term_id',
  event_series: 'post_id',
  event_occurrences: 'post_id',
  ical_links: 'uid, recurrence_id',
  ical_subscriptions: 'url',
  webhook_subscriptions: 'id',
  tec_links: 'source, kind, source_id',
};

/** Text key columns: PostgreSQL orders them by byte ("C" collation), as SQLite's BINARY does, not by locale. */
const TEXT_KEYS: ReadonlySet<string> = new Set([
  'ical_links.uid',
  'ical_links.recurrence_id',
  'ical_subscriptions.url',
  'tec_links.source',
  'tec_links.kind',
]);

/** The ORDER BY clause of a table on one store: the same row order on both, so their exports are the same file. */
export const orderBy = (table: DumpTable, kind: 'sqlite' | 'postgres'): string =>
  kind === 'postgres'
    ? ORDER_BY[table]
        .split(', ')
        .map((c) => (TEXT_KEYS.has(`${table}.${c}`) ? `${c} collate "C"` : c))
        .join(', ')
    : ORDER_BY[table];

/** Tables with a generated id, whose counters the header carries. */
export const ID_TABLES = ['users', 'app_passwords', 'posts', 'terms', 'webhook_subscriptions'] as const;

export const isDumpTable = (t: unknown): t is DumpTable =>
  typeof t === 'string' && (TABLES as readonly string[]).includes(t);
