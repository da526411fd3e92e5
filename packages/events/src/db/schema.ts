import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

/** Post types share one id sequence, as WordPress posts do. */
export type PostType = 'tribe_events' | 'tribe_venue' | 'tribe_organizer' | 'attachment';

export interface PostsTable {
  id: Generated<number>;
  type: PostType;
  slug: string;
  title: string;
  content: string;
  excerpt: string;
  status: string;
  author: number;
  password: string;
  date_local: string;
  date_gmt: string;
  modified_local: string;
  modified_gmt: string;
  /** -1 marks a sticky event, as WordPress `menu_order`. */
  menu_order: number;
  /** What the post's fixed `guid` is made of (migration 013): '' for `?post_type=…&p=ID`, a slug, or NULL (older row). */
  guid_slug: string | null;
}

/** Columns with a database default (migration 001) are `Generated`: an insert may leave them out, a read has them. */
export interface EventsTable {
  post_id: number;
  start_local: string;
  end_local: string;
  start_utc: string;
  end_utc: string;
  timezone: string;
  all_day: Generated<number>;
  /** JSON array of the cost strings as sent, or null when there is no cost. */
  cost: string | null;
  currency_symbol: Generated<string>;
  currency_position: Generated<string>;
  /** null: never set (reads back as the permalink); '' stays ''. */
  website: string | null;
  show_map: Generated<number>;
  show_map_link: Generated<number>;
  hide_from_listings: Generated<number>;
  featured: Generated<number>;
  venue_id: number | null;
  parent_id: number | null;
  /** Featured image: an attachment post id (migration 005). */
  thumbnail_id: number | null;
  /**
   * TEC's `_EventDuration` (migration 013): seconds from start to end as last written, before an all-day event is
   * widened to whole days; kept when a write changes neither date. NULL on older rows (then end − start).
   */
  duration: number | null;
}

/** An `events` row as read, as inserted (defaulted and nullable columns optional) and as patched. */
export type EventColumns = Selectable<EventsTable>;
export type NewEventColumns = Insertable<EventsTable>;
export type EventColumnsPatch = Omit<Updateable<EventsTable>, 'post_id'>;

export interface VenuesTable {
  post_id: number;
  address: string;
  city: string;
  country: string;
  province: string;
  state: string;
  zip: string;
  phone: string;
  website: string;
  stateprovince: string;
  show_map: number;
  show_map_link: number;
  geo_lat: number | null;
  geo_lng: number | null;
  thumbnail_id: number | null;
}

export interface OrganizersTable {
  post_id: number;
  phone: string;
  website: string;
  email: string;
  thumbnail_id: number | null;
}

export interface EventOrganizersTable {
  event_id: number;
  organizer_id: number;
  position: number;
}

export type Taxonomy = 'tribe_events_cat' | 'post_tag';

export interface TermsTable {
  id: Generated<number>;
  taxonomy: Taxonomy;
  name: string;
  slug: string;
  description: string;
  parent: number;
  /** Published events carrying the term, kept up to date by writes (migration 002). */
  count: Generated<number>;
}

export interface EventTermsTable {
  event_id: number;
  term_id: number;
}

export interface UsersTable {
  id: Generated<number>;
  login: string;
  email: string;
  display_name: string;
  role: string;
  created_gmt: string;
  /** WordPress's `user_url` (migration 014). */
  url: Generated<string>;
}

export interface AppPasswordsTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  /** `scrypt$N$r$p$salt$hash`, base64 parts. */
  hash: string;
  created_gmt: string;
}

/** An image in the media library: the detail row of an `attachment` post (migration 005). */
export interface AttachmentsTable {
  post_id: number;
  /** `YYYY/MM/name.ext` under the uploads folder. */
  file: string;
  mime_type: string;
  width: number;
  height: number;
  filesize: number;
  source_url: string | null;
  /** JSON: `{name: {file, width, height, mime_type, filesize}}`, the generated sizes in WordPress order. */
  sizes: string;
}

/** Authentication attempts of one address or login in its current minute (migration 006). */
export interface LoginAttemptsTable {
  bucket: string;
  minute: number;
  attempts: number;
}

/** A recurring series: the rule of its first event (migration 008; `format` is recurrence/rule.ts RECURRENCE_FORMAT). */
export interface EventSeriesTable {
  post_id: number;
  format: number;
  rrule: string;
  /** JSON arrays of iCalendar date values. */
  exdates: string;
  rdates: string;
}

/** An occurrence post of a series: the rule's start it stands for, and whether it was edited on its own. */
export interface EventOccurrencesTable {
  post_id: number;
  series_id: number;
  recurrence_id: string;
  overridden: number;
  /** 1 when the occurrence was deleted on its own: it stays in the trash and its start out of the series (migration 010). */
  excluded: number;
}

/** Where the search for a base's next free slug suffix starts (migration 015): `base-2` … `base-(hint-1)` are taken. */
export interface SlugHintsTable {
  type: PostType;
  base: string;
  /** bigint on PostgreSQL, read back as a string there. */
  hint: ColumnType<number | string, number, number>;
}

/** A VEVENT imported from an iCalendar feed and the event post it became (migration 016). */
export interface IcalLinksTable {
  uid: string;
  recurrence_id: string;
  source: string;
  post_id: number;
  digest: string;
}

/** An item of a site running the plugin and the post or term it was imported as (migration 018). */
export interface TecLinksTable {
  /** The source's API root without its scheme: `example.com/wp-json/tribe/events/v1`. */
  source: string;
  kind: string;
  source_id: number;
  local_id: number;
}

/** An iCalendar feed the service imports on a schedule (migration 016); times in ms (strings on PostgreSQL). */
/** Webhook subscriptions (migration 017); `event_types` is the list between commas: `,event.created,tag.deleted,`. */
export interface WebhookSubscriptionsTable {
  id: Generated<number>;
  url: string;
  secret: string;
  event_types: string;
  paused: Generated<number>;
  failing_since_ms: number | string | null;
  created_ms: number | string;
}

/** One message to one subscription (migration 017): written by triggers in the transaction of the change. */
export interface WebhookOutboxTable {
  id: Generated<number | string>;
  msg_id: string;
  subscription_id: number;
  entity_kind: string;
  entity_id: number;
  event_type: string;
  payload: string | null;
  attempts: Generated<number>;
  next_attempt_ms: number | string;
  first_attempt_ms: number | string | null;
  status: Generated<string>;
  last_error: Generated<string>;
  created_ms: number | string;
  delivered_ms: number | string | null;
}

export interface IcalSubscriptionsTable {
  url: string;
  every_seconds: number;
  trash_vanished: number;
  author_id: number | null;
  next_run_ms: ColumnType<number | string, number, number>;
  last_run_ms: ColumnType<number | string | null, number | null, number | null>;
  last_status: ColumnType<string, string | undefined, string>;
  last_message: ColumnType<string, string | undefined, string>;
  created_ms: ColumnType<number | string, number, number>;
}

export interface Database {
  posts: PostsTable;
  events: EventsTable;
  venues: VenuesTable;
  organizers: OrganizersTable;
  event_organizers: EventOrganizersTable;
  terms: TermsTable;
  event_terms: EventTermsTable;
  users: UsersTable;
  app_passwords: AppPasswordsTable;
  attachments: AttachmentsTable;
  login_attempts: LoginAttemptsTable;
  event_series: EventSeriesTable;
  event_occurrences: EventOccurrencesTable;
  slug_hints: SlugHintsTable;
  ical_links: IcalLinksTable;
  ical_subscriptions: IcalSubscriptionsTable;
  webhook_subscriptions: WebhookSubscriptionsTable;
  webhook_outbox: WebhookOutboxTable;
  tec_links: TecLinksTable;
}
