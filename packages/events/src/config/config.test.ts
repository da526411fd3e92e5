import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_PORT, parseConfig, storeUrl } from './config.ts';

describe('parseConfig', () => {
  it('defaults to SQLite under ./data on the documented port', () => {
    const c = parseConfig({}, {});
    expect(c).toMatchObject({
      port: DEFAULT_PORT,
      db: 'sqlite:./data/events.sqlite',
      siteUrl: `http://127.0.0.1:${DEFAULT_PORT}`,
      timezone: 'UTC',
    });
    expect(Object.isFrozen(c)).toBe(true);
  });
  it('lets flags win over the environment', () => {
    expect(parseConfig({ port: 9000 }, { EVENTS_PORT: '7000', EVENTS_TIMEZONE: 'Europe/Rome' })).toMatchObject({
      port: 9000,
      timezone: 'Europe/Rome',
    });
  });
  it('sizes the item cache in MiB, 64 by default and 0 to turn it off', () => {
    expect(parseConfig({}, {}).itemCacheBytes).toBe(128 * 2 ** 20);
    expect(parseConfig({}, { EVENTS_ITEM_CACHE_MB: '0' }).itemCacheBytes).toBe(0);
    expect(parseConfig({}, { EVENTS_ITEM_CACHE_MB: '8' }).itemCacheBytes).toBe(8 * 2 ** 20);
  });
  it('keeps uploads under ./data/uploads, caps images at 10 MiB and refuses private image hosts by default', () => {
    expect(parseConfig({}, {})).toMatchObject({
      uploadsDir: './data/uploads',
      mediaMaxBytes: 10 * 2 ** 20,
      mediaAllowPrivateHosts: false,
    });
    expect(
      parseConfig(
        {},
        { EVENTS_UPLOADS_DIR: '/srv/up', EVENTS_MEDIA_MAX_BYTES: '1000', EVENTS_MEDIA_ALLOW_PRIVATE_HOSTS: 'true' },
      ),
    ).toMatchObject({ uploadsDir: '/srv/up', mediaMaxBytes: 1000, mediaAllowPrivateHosts: true });
  });
  it('reads the store diagnostics and the zoneinfo folder once, here, with their defaults', () => {
    expect(parseConfig({}, {})).toMatchObject({
      slowQueryMs: 0,
      sqliteSync: 'NORMAL',
      zoneinfoDir: '/usr/share/zoneinfo',
    });
    expect(
      parseConfig({}, { EVENTS_SLOW_QUERY_MS: '25', EVENTS_SQLITE_SYNC: 'full', TZDIR: '/opt/zoneinfo' }),
    ).toMatchObject({ slowQueryMs: 25, sqliteSync: 'FULL', zoneinfoDir: '/opt/zoneinfo' });
    expect(() => parseConfig({}, { EVENTS_SQLITE_SYNC: 'OFF' })).toThrow(/EVENTS_SQLITE_SYNC must be NORMAL or FULL/);
    expect(() => parseConfig({}, { EVENTS_SLOW_QUERY_MS: 'slow' })).toThrow(/EVENTS_SLOW_QUERY_MS/);
  });
  it('bounds recurring series at 730 occurrences by default, from 1 to 100,000', () => {
    expect(parseConfig({}, {}).recurrenceMaxOccurrences).toBe(730);
    expect(parseConfig({}, { EVENTS_RECURRENCE_MAX_OCCURRENCES: '1' }).recurrenceMaxOccurrences).toBe(1);
    expect(parseConfig({}, { EVENTS_RECURRENCE_MAX_OCCURRENCES: '100000' }).recurrenceMaxOccurrences).toBe(100_000);
    for (const bad of ['0', '100001', '2.5', 'many']) {
      expect(() => parseConfig({}, { EVENTS_RECURRENCE_MAX_OCCURRENCES: bad })).toThrow(
        /EVENTS_RECURRENCE_MAX_OCCURRENCES/,
      );
    }
  });
  it('keeps the webhook delivery log 14 days by default, 0 forever, and refuses other values', () => {
    expect(parseConfig({}, {}).webhookLogDays).toBe(14);
    expect(parseConfig({}, { EVENTS_WEBHOOK_LOG_DAYS: '0' }).webhookLogDays).toBe(0);
    expect(parseConfig({}, { EVENTS_WEBHOOK_LOG_DAYS: '90' }).webhookLogDays).toBe(90);
    for (const bad of ['-1', '1.5', '3651', 'week'])
      expect(() => parseConfig({}, { EVENTS_WEBHOOK_LOG_DAYS: bad })).toThrow(/EVENTS_WEBHOOK_LOG_DAYS/);
  });
  it.each([
    [{ port: 'x' }, {}],
    [{ db: 'mysql://x' }, {}],
    [{}, { EVENTS_TIMEZONE: 'Mars/Base' }],
    [{}, { EVENTS_CACHE_TTL_MS: '-1' }],
    [{}, { EVENTS_ITEM_CACHE_MB: '-1' }],
    [{}, { EVENTS_ITEM_CACHE_MB: '1.5' }],
    [{}, { EVENTS_ITEM_CACHE_MB: 'lots' }],
    [{}, { EVENTS_CURRENCY_POSITION: 'middle' }],
    [{ siteUrl: 'not a url' }, {}],
    [{}, { EVENTS_MEDIA_MAX_BYTES: '0' }],
    [{}, { EVENTS_MEDIA_MAX_BYTES: 'big' }],
    [{}, { EVENTS_MEDIA_ALLOW_PRIVATE_HOSTS: 'maybe' }],
  ])('stops start-up on a bad value: %j %j', (flags, env) => {
    expect(() => parseConfig(flags, env)).toThrow(ConfigError);
  });
  it('reads a bare SQLite file path as sqlite:PATH and refuses values that are neither a file nor a URL', () => {
    expect(parseConfig({ db: '/srv/events.sqlite' }, {}).db).toBe('sqlite:/srv/events.sqlite');
    expect(storeUrl('./data/events.db')).toBe('sqlite:./data/events.db');
    expect(storeUrl('events.SQLITE3')).toBe('sqlite:events.SQLITE3');
    expect(storeUrl('postgresql://u@h/db')).toBe('postgresql://u@h/db');
    for (const bad of ['/srv/events', 'mysql://root@h/events.db', 'sqlite:', ''])
      expect(() => storeUrl(bad)).toThrow(ConfigError);
  });
});
