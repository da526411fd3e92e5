import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_PORT, parseConfig } from './config.ts';

describe('parseConfig', () => {
  it('defaults to SQLite under ./data on the documented port', () => {
    const c = parseConfig({}, {});
    expect(c).toMatchObject({ port: DEFAULT_PORT, db: 'sqlite:./data/events.sqlite', siteUrl: `http://127.0.0.1:${DEFAULT_PORT}`, timezone: 'UTC' });
    expect(Object.isFrozen(c)).toBe(true);
  });
  it('lets flags win over the environment', () => {
    expect(parseConfig({ port: 9000 }, { EVENTS_PORT: '7000', EVENTS_TIMEZONE: 'Europe/Rome' })).toMatchObject({ port: 9000, timezone: 'Europe/Rome' });
  });
  it('sizes the item cache in MiB, 64 by default and 0 to turn it off', () => {
    expect(parseConfig({}, {}).itemCacheBytes).toBe(64 * 2 ** 20);
    expect(parseConfig({}, { EVENTS_ITEM_CACHE_MB: '0' }).itemCacheBytes).toBe(0);
    expect(parseConfig({}, { EVENTS_ITEM_CACHE_MB: '8' }).itemCacheBytes).toBe(8 * 2 ** 20);
  });
  it.each([
    [{ port: 'x' }, {}], [{ db: 'mysql://x' }, {}], [{}, { EVENTS_TIMEZONE: 'Mars/Base' }], [{}, { EVENTS_CACHE_TTL_MS: '-1' }],
    [{}, { EVENTS_ITEM_CACHE_MB: '-1' }], [{}, { EVENTS_ITEM_CACHE_MB: '1.5' }], [{}, { EVENTS_ITEM_CACHE_MB: 'lots' }],
    [{}, { EVENTS_CURRENCY_POSITION: 'middle' }], [{ siteUrl: 'not a url' }, {}],
  ])('stops start-up on a bad value: %j %j', (flags, env) => {
    expect(() => parseConfig(flags, env)).toThrow(ConfigError);
  });
});
