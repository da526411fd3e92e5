import { isValidZone } from '../time/index.ts';

/** Site settings and service options, parsed once at start-up and frozen. */
export interface Config {
  readonly port: number;
  readonly host: string;
  /** `sqlite:PATH` or `postgres://…`. */
  readonly db: string;
  /** Public home URL of the site, without trailing slash, e.g. `http://localhost:8080`. */
  readonly siteUrl: string;
  readonly siteName: string;
  /** The site tagline (`/wp-json/` `description`, `/wp/v2/settings`). */
  readonly siteDescription: string;
  /** `admin_email` in `/wp/v2/settings`; `''`: the e-mail of the first administrator. */
  readonly adminEmail: string;
  /** IANA zone or `UTC±h` used when an event has none and for the default date window. */
  readonly timezone: string;
  readonly currencySymbol: string;
  readonly currencyPosition: 'prefix' | 'postfix';
  /** ISO 4217 code of the site currency, as the plugin's "currency code" setting (JSON-LD offers). */
  readonly currencyCode: string;
  /** Radius of the geolocation filter around `geoloc_lat`/`geoloc_lng`. */
  readonly geolocRadiusKm: number;
  readonly bodyLimitBytes: number;
  readonly logLevel: string;
  /** How long anonymous GET responses may be served from memory; every local write invalidates them at once. */
  readonly cacheTtlMs: number;
  /** How long the ETag of an answer may answer a re-poll with 304 without rebuilding it (same generation only). */
  readonly validatorTtlMs: number;
  /** Memory for built single items (events by id), kept until the next committed change; 0 disables. */
  readonly itemCacheBytes: number;
  /** Media library folder; files live at `YYYY/MM/name.ext` under it and are served at `{home}/wp-content/uploads/`. */
  readonly uploadsDir: string;
  /** Largest image accepted, downloaded or imported (a larger one is a 400). */
  readonly mediaMaxBytes: number;
  /** Lets image URLs reach loopback, private and link-local addresses on any port (intranets and tests only). */
  readonly mediaAllowPrivateHosts: boolean;
  /** Most occurrences a recurring series may have, its first event included (more is a 400 before any write). */
  readonly recurrenceMaxOccurrences: number;
  /** How often the service looks for iCalendar subscriptions due to run; 0: it runs none (another instance does). */
  readonly icalPollMs: number;
  /** How often the service looks for due webhook deliveries; 0: it delivers none (another instance does). */
  readonly webhookPollMs: number;
  /** The first webhook retry's delay; each next one doubles it (with jitter), up to an hour, for 24 hours. */
  readonly webhookRetryBaseMs: number;
  /** How long one webhook POST may take; a claimed message is held for three times this (an instance that died). */
  readonly webhookTimeoutMs: number;
  /** Days a delivered or failed webhook message stays in the delivery log after its last attempt; 0 keeps it forever. */
  readonly webhookLogDays: number;
  /** Queries slower than this many ms are printed to stderr (a diagnostic); 0 prints none. */
  readonly slowQueryMs: number;
  /** SQLite `synchronous`: NORMAL loses at most the last commits on a power cut, FULL fsyncs every commit. */
  readonly sqliteSync: 'NORMAL' | 'FULL';
  /** IANA zoneinfo folder (TZif files) for time zone abbreviations and iCalendar VTIMEZONEs. */
  readonly zoneinfoDir: string;
}

export const DEFAULT_PORT = 8787;

export const defaultConfig: Config = Object.freeze({
  port: DEFAULT_PORT,
  host: '127.0.0.1',
  db: 'sqlite:./data/events.sqlite',
  siteUrl: `http://localhost:${DEFAULT_PORT}`,
  siteName: 'Events',
  siteDescription: '',
  adminEmail: '',
  timezone: 'UTC',
  currencySymbol: '$',
  currencyPosition: 'prefix',
  currencyCode: 'USD',
  geolocRadiusKm: 16,
  bodyLimitBytes: 1024 * 1024,
  logLevel: 'info',
  cacheTtlMs: 5000,
  validatorTtlMs: 5000,
  // 128 MB holds ~18,000 events with list and single bodies; at 64 MB a calendar of 10,000 such events fell off
  // the LRU cliff (a cyclic scan larger than the cache hits nothing) once json_ld and cost details grew the bodies.
  itemCacheBytes: 128 * 1024 * 1024,
  uploadsDir: './data/uploads',
  mediaMaxBytes: 10 * 1024 * 1024,
  mediaAllowPrivateHosts: false,
  // Two years of a daily series: Pro creates occurrences up to 24 months ahead by default.
  recurrenceMaxOccurrences: 730,
  icalPollMs: 60_000,
  webhookPollMs: 100,
  webhookRetryBaseMs: 5_000,
  webhookTimeoutMs: 10_000,
  webhookLogDays: 14,
  slowQueryMs: 0,
  sqliteSync: 'NORMAL',
  zoneinfoDir: '/usr/share/zoneinfo',
});

export class ConfigError extends Error {}

/** A file name SQLite users commonly give: `events.sqlite`, `data/events.db`, `./x.sqlite3`. */
const SQLITE_FILE = /\.(sqlite3?|db3?)$/i;

/**
 * The store URL of `--db` / `EVENTS_DB`: `sqlite:PATH` and `postgres://…` as they are; a bare path to a SQLite file
 * (`/srv/events.sqlite`, `./data/events.db`) is taken as `sqlite:PATH`, since that is what someone typing a file path
 * means (issue 25: it used to reach the PostgreSQL driver as a socket folder). Anything else is refused with the forms.
 * @example storeUrl('/srv/events.sqlite') // 'sqlite:/srv/events.sqlite'
 */
export function storeUrl(value: string): string {
  if (/^sqlite:.+/.test(value) || /^postgres(ql)?:\/\//.test(value)) return value;
  if (SQLITE_FILE.test(value) && !/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return `sqlite:${value}`;
  throw new ConfigError(
    `--db must be sqlite:PATH, a SQLite file path ending in .sqlite, .sqlite3 or .db, or postgres://user@host:port/name; got ${value}`,
  );
}

/**
 * Merges flags over environment (`EVENTS_*`) over defaults and checks every value; a bad value stops start-up.
 * @example parseConfig({ port: '9000' }, process.env)
 */
export function parseConfig(
  flags: Partial<Record<keyof Config, string | number>>,
  env: NodeJS.ProcessEnv = {},
): Config {
  const pick = (key: keyof Config, envName: string): string | undefined => {
    const v = flags[key] ?? env[envName];
    return v === undefined || v === '' ? undefined : String(v);
  };
  const port = Number(pick('port', 'EVENTS_PORT') ?? defaultConfig.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new ConfigError(`--port must be 0-65535, got ${String(flags.port)}`);
  const db = storeUrl(pick('db', 'EVENTS_DB') ?? defaultConfig.db);
  const host = pick('host', 'EVENTS_HOST') ?? defaultConfig.host;
  const siteUrl = (
    pick('siteUrl', 'EVENTS_SITE_URL') ?? `http://${host === '0.0.0.0' ? 'localhost' : host}:${port}`
  ).replace(/\/+$/, '');
  try {
    new URL(siteUrl);
  } catch {
    throw new ConfigError(`EVENTS_SITE_URL must be an absolute URL, got ${siteUrl}`);
  }
  const timezone = pick('timezone', 'EVENTS_TIMEZONE') ?? defaultConfig.timezone;
  if (!isValidZone(timezone)) throw new ConfigError(`EVENTS_TIMEZONE must be an IANA zone or UTC±h, got ${timezone}`);
  const currencyPosition = pick('currencyPosition', 'EVENTS_CURRENCY_POSITION') ?? defaultConfig.currencyPosition;
  if (currencyPosition !== 'prefix' && currencyPosition !== 'postfix') {
    throw new ConfigError('EVENTS_CURRENCY_POSITION must be prefix or postfix');
  }
  const geolocRadiusKm = Number(pick('geolocRadiusKm', 'EVENTS_GEOLOC_RADIUS_KM') ?? defaultConfig.geolocRadiusKm);
  if (!(geolocRadiusKm > 0)) throw new ConfigError('EVENTS_GEOLOC_RADIUS_KM must be a positive number');
  const bodyLimitBytes = Number(pick('bodyLimitBytes', 'EVENTS_BODY_LIMIT') ?? defaultConfig.bodyLimitBytes);
  if (!Number.isInteger(bodyLimitBytes) || bodyLimitBytes < 1024)
    throw new ConfigError('EVENTS_BODY_LIMIT must be an integer ≥ 1024');
  const cacheTtlMs = Number(pick('cacheTtlMs', 'EVENTS_CACHE_TTL_MS') ?? defaultConfig.cacheTtlMs);
  if (!Number.isInteger(cacheTtlMs) || cacheTtlMs < 0)
    throw new ConfigError('EVENTS_CACHE_TTL_MS must be an integer ≥ 0 (0 disables the cache)');
  const validatorTtlMs = Number(env.EVENTS_VALIDATOR_TTL_MS || defaultConfig.validatorTtlMs);
  if (!Number.isInteger(validatorTtlMs) || validatorTtlMs < 0)
    throw new ConfigError('EVENTS_VALIDATOR_TTL_MS must be an integer ≥ 0 (0: every 304 rebuilds the answer first)');
  const itemCacheMb = Number(env.EVENTS_ITEM_CACHE_MB || defaultConfig.itemCacheBytes / 2 ** 20);
  if (!Number.isInteger(itemCacheMb) || itemCacheMb < 0)
    throw new ConfigError('EVENTS_ITEM_CACHE_MB must be an integer ≥ 0 (0 disables the item cache)');
  const mediaMaxBytes = Number(env.EVENTS_MEDIA_MAX_BYTES || defaultConfig.mediaMaxBytes);
  if (!Number.isInteger(mediaMaxBytes) || mediaMaxBytes < 1)
    throw new ConfigError('EVENTS_MEDIA_MAX_BYTES must be a positive integer');
  const allowPrivate = (env.EVENTS_MEDIA_ALLOW_PRIVATE_HOSTS ?? '').toLowerCase();
  if (!['', '0', '1', 'true', 'false'].includes(allowPrivate))
    throw new ConfigError('EVENTS_MEDIA_ALLOW_PRIVATE_HOSTS must be 1/true or 0/false');
  const recurrenceMax = Number(env.EVENTS_RECURRENCE_MAX_OCCURRENCES || defaultConfig.recurrenceMaxOccurrences);
  if (!Number.isInteger(recurrenceMax) || recurrenceMax < 1 || recurrenceMax > 100_000) {
    throw new ConfigError('EVENTS_RECURRENCE_MAX_OCCURRENCES must be an integer from 1 to 100000');
  }
  const icalPollMs = Number(env.EVENTS_ICAL_POLL_MS || defaultConfig.icalPollMs);
  if (!Number.isInteger(icalPollMs) || icalPollMs < 0)
    throw new ConfigError('EVENTS_ICAL_POLL_MS must be an integer ≥ 0 (0: this instance runs no subscriptions)');
  const webhookPollMs = Number(env.EVENTS_WEBHOOK_POLL_MS || defaultConfig.webhookPollMs);
  if (!Number.isInteger(webhookPollMs) || webhookPollMs < 0)
    throw new ConfigError('EVENTS_WEBHOOK_POLL_MS must be an integer ≥ 0 (0: this instance delivers no webhooks)');
  const webhookRetryBaseMs = Number(env.EVENTS_WEBHOOK_RETRY_BASE_MS || defaultConfig.webhookRetryBaseMs);
  if (!Number.isInteger(webhookRetryBaseMs) || webhookRetryBaseMs < 1)
    throw new ConfigError('EVENTS_WEBHOOK_RETRY_BASE_MS must be an integer ≥ 1');
  const webhookTimeoutMs = Number(env.EVENTS_WEBHOOK_TIMEOUT_MS || defaultConfig.webhookTimeoutMs);
  if (!Number.isInteger(webhookTimeoutMs) || webhookTimeoutMs < 100 || webhookTimeoutMs > 60_000)
    throw new ConfigError('EVENTS_WEBHOOK_TIMEOUT_MS must be an integer from 100 to 60000');
  const webhookLogDays = Number(env.EVENTS_WEBHOOK_LOG_DAYS || defaultConfig.webhookLogDays);
  if (!Number.isInteger(webhookLogDays) || webhookLogDays < 0 || webhookLogDays > 3650)
    throw new ConfigError(
      'EVENTS_WEBHOOK_LOG_DAYS must be an integer from 0 to 3650 (0: keep the delivery log forever)',
    );
  const adminEmail = (env.EVENTS_ADMIN_EMAIL ?? defaultConfig.adminEmail).trim();
  if (adminEmail !== '' && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(adminEmail))
    throw new ConfigError(`EVENTS_ADMIN_EMAIL must be an e-mail address, got ${adminEmail}`);
  const slowQueryMs = Number(env.EVENTS_SLOW_QUERY_MS || defaultConfig.slowQueryMs);
  if (!(slowQueryMs >= 0)) throw new ConfigError('EVENTS_SLOW_QUERY_MS must be a number ≥ 0 (0: off)');
  const sqliteSync = (env.EVENTS_SQLITE_SYNC || defaultConfig.sqliteSync).toUpperCase();
  if (sqliteSync !== 'NORMAL' && sqliteSync !== 'FULL')
    throw new ConfigError(`EVENTS_SQLITE_SYNC must be NORMAL or FULL, got ${sqliteSync}`);
  return Object.freeze({
    recurrenceMaxOccurrences: recurrenceMax,
    icalPollMs,
    webhookPollMs,
    webhookRetryBaseMs,
    webhookTimeoutMs,
    webhookLogDays,
    slowQueryMs,
    sqliteSync,
    zoneinfoDir: env.TZDIR || defaultConfig.zoneinfoDir,
    port,
    host,
    db,
    siteUrl,
    timezone,
    currencyPosition,
    geolocRadiusKm,
    bodyLimitBytes,
    cacheTtlMs,
    validatorTtlMs,
    itemCacheBytes: itemCacheMb * 2 ** 20,
    uploadsDir: env.EVENTS_UPLOADS_DIR || defaultConfig.uploadsDir,
    mediaMaxBytes,
    mediaAllowPrivateHosts: allowPrivate === '1' || allowPrivate === 'true',
    siteName: pick('siteName', 'EVENTS_SITE_NAME') ?? defaultConfig.siteName,
    siteDescription: env.EVENTS_SITE_DESCRIPTION ?? defaultConfig.siteDescription,
    adminEmail,
    currencySymbol: pick('currencySymbol', 'EVENTS_CURRENCY_SYMBOL') ?? defaultConfig.currencySymbol,
    currencyCode: pick('currencyCode', 'EVENTS_CURRENCY_CODE') ?? defaultConfig.currencyCode,
    logLevel: pick('logLevel', 'EVENTS_LOG_LEVEL') ?? defaultConfig.logLevel,
  });
}
