import { describe, expect, it } from 'vitest';
import { EVENT_COLUMNS, EVENT_SELECT, occurrenceCopy } from './event-columns.ts';
import type { EventColumns } from './schema.ts';

const first: EventColumns = {
  post_id: 7,
  start_local: '2026-01-05 10:00:00',
  end_local: '2026-01-05 11:00:00',
  start_utc: '2026-01-05 09:00:00',
  end_utc: '2026-01-05 10:00:00',
  timezone: 'Europe/Rome',
  all_day: 0,
  cost: '["5"]',
  currency_symbol: '€',
  currency_position: 'postfix',
  website: 'https://example.org',
  show_map: 1,
  show_map_link: 0,
  hide_from_listings: 0,
  featured: 1,
  venue_id: 3,
  parent_id: null,
  thumbnail_id: 9,
  duration: 3600,
};

describe('event columns', () => {
  it('selects every column but the key, in declaration order', () => {
    expect(EVENT_SELECT).toEqual(Object.keys(EVENT_COLUMNS).map((c) => `events.${c}`));
    expect(EVENT_SELECT).not.toContain('events.post_id');
    expect(EVENT_SELECT).toHaveLength(Object.keys(first).length - 1);
  });

  it("copies to an occurrence exactly the 'copy' columns: not the key, dates, series link or duration", () => {
    expect(occurrenceCopy(first)).toEqual({
      timezone: 'Europe/Rome',
      all_day: 0,
      cost: '["5"]',
      currency_symbol: '€',
      currency_position: 'postfix',
      website: 'https://example.org',
      show_map: 1,
      show_map_link: 0,
      hide_from_listings: 0,
      featured: 1,
      venue_id: 3,
      thumbnail_id: 9,
    });
  });
});
