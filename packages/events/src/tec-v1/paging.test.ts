import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pagingHeaders } from './paging.ts';
import { scheduleDetails, daysSpanned } from './schedule.ts';

const BASE = 'http://site.test/wp-json/tec/v1/events';
const ARGS = { arrays: ['categories', 'status'], booleans: ['featured'] };

describe('tec/v1 paging headers', () => {
  it('link the next page while there is one and the previous from page 2, keeping the other parameters in order', () => {
    const key = fc
      .stringMatching(/^[a-z_]{1,8}$/)
      .filter((k) => k !== 'page' && !ARGS.arrays.includes(k) && !ARGS.booleans.includes(k));
    fc.assert(
      fc.property(
        fc.dictionary(key, fc.string({ maxLength: 6 }), { maxKeys: 4 }),
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: 1, max: 50 }),
        fc.integer({ min: 0, max: 400 }),
        (query, page, perPage, total) => {
          const h = pagingHeaders(BASE, query, ARGS, page, perPage, total);
          const pages = Math.ceil(total / perPage);
          expect(h['X-WP-Total']).toBe(total);
          expect(h['X-WP-TotalPages']).toBe(pages);
          const links = typeof h.Link === 'string' ? h.Link.split(', <') : [];
          expect(links.some((l) => l.endsWith('rel="next"'))).toBe(page < pages);
          expect(links.some((l) => l.endsWith('rel="prev"'))).toBe(page > 1);
          for (const l of links) {
            const url = new URL(l.replace(/^</, '').replace(/>; rel="(next|prev)"$/, ''));
            expect(url.searchParams.getAll('page')).toEqual([String(l.endsWith('"next"') ? page + 1 : page - 1)]);
            // The sent parameters, in the order sent, then `page`.
            expect([...url.searchParams.keys()]).toEqual([...Object.keys(query), 'page']);
            for (const [k, v] of Object.entries(query)) expect(url.searchParams.get(k)).toBe(v);
          }
        },
      ),
    );
  });

  it('write lists back as name[i] and booleans as 1 or 0, and replace page where it was', () => {
    const h = pagingHeaders(BASE, { categories: '3,4', featured: 'maybe', page: '2', per_page: '1' }, ARGS, 2, 1, 5);
    expect(h.Link).toBe(
      `<${BASE}?categories%5B0%5D=3&categories%5B1%5D=4&featured=1&page=3&per_page=1>; rel="next", ` +
        `<${BASE}?categories%5B0%5D=3&categories%5B1%5D=4&featured=1&page=1&per_page=1>; rel="prev"`,
    );
    expect(pagingHeaders(BASE, {}, ARGS, 1, 10, 0)).toEqual({ 'X-WP-Total': 0, 'X-WP-TotalPages': 0 });
  });
});

describe('tec/v1 schedule details', () => {
  const w = (y: number, mo: number, d: number, h = 0, mi = 0) => ({ y, mo, d, h, mi, s: 0 });
  it('formats one day, several days and all-day events as the plugin does, without the current year', () => {
    expect(scheduleDetails(w(2032, 3, 10, 19), w(2032, 3, 10, 22, 30), false, 2026)).toEqual({
      full: '<span class="tribe-event-date-start">March 10, 2032 @ 7:00 pm</span> - <span class="tribe-event-time">10:30 pm</span>',
      short: '<span class="tribe-event-date-start">7:00 pm</span> - <span class="tribe-event-time">10:30 pm</span>',
    });
    expect(scheduleDetails(w(2032, 4, 1), w(2032, 4, 1, 23, 59), true, 2026)).toEqual({
      full: '<span class="tribe-event-date-start">April 1, 2032</span>',
      short: 'All day',
    });
    expect(scheduleDetails(w(2026, 3, 26, 21), w(2026, 3, 27, 1), false, 2026).full).toBe(
      '<span class="tribe-event-date-start">March 26 @ 9:00 pm</span> - <span class="tribe-event-date-end">March 27 @ 1:00 am</span>',
    );
  });

  it('counts the calendar days a span touches', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 40_000 }), fc.integer({ min: 0, max: 400 }), (start, days) => {
        const a = new Date(Date.UTC(2000, 0, 1) + start * 86_400_000);
        const b = new Date(a.getTime() + days * 86_400_000);
        const wall = (d: Date) => w(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate(), 12);
        expect(daysSpanned(wall(a), wall(b))).toBe(days + 1);
      }),
    );
  });
});
