import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORES, startService, createEvent, type Service } from './support/harness.ts';

// The dates the plugin vendor's MCP server sends, as PHP 8.2's strtotime() reads them at the harness clock
// (Wednesday 2018-01-10 12:00 UTC); expected values recorded with php-cli (src/time/strtotime.php.test.ts has the full table).
describe.each(STORES)('natural-language dates through the API ($name)', (factory) => {
  let svc: Service;
  beforeAll(async () => {
    svc = await startService(factory);
  });
  afterAll(() => svc.close());

  it.each([
    [
      'first thursday of next month 6:30pm',
      'first thursday of next month 9pm',
      '2018-02-01 18:30:00',
      '2018-02-01 21:00:00',
    ],
    ['last friday of march 2028', 'last friday of march 2028 11pm', '2028-03-31 00:00:00', '2028-03-31 23:00:00'],
    ['first day of next month', 'last day of next month', '2018-02-01 12:00:00', '2018-02-28 12:00:00'],
    ['monday next week', 'friday next week 10am', '2018-01-15 00:00:00', '2018-01-19 10:00:00'],
    ['next week', '+1 week 2 days', '2018-01-15 12:00:00', '2018-01-19 12:00:00'],
  ])('creates an event from %j to %j', async (start, end, startLocal, endLocal) => {
    const e = await createEvent(svc, { title: `From ${start}`, start_date: start, end_date: end }, 'author');
    expect([e.start_date, e.end_date]).toEqual([startLocal, endLocal]);
  });

  it('reads them in the event time zone, and in list filters', async () => {
    const e = await createEvent(svc, {
      title: 'Sydney',
      timezone: 'Australia/Sydney',
      start_date: 'first thursday of next month 6:30pm',
      end_date: 'first thursday of next month 9pm',
    });
    expect([e.start_date, e.utc_start_date]).toEqual(['2018-02-01 18:30:00', '2018-02-01 07:30:00']);
    const list = await svc.get('/events', {
      query: { start_date: 'first day of next month midnight', end_date: 'last day of next month' },
    });
    expect(list.status).toBe(200);
    expect(list.body.events.map((x: { title: string }) => x.title)).toContain('From first day of next month');
  });

  it('answers 400 for what PHP refuses', async () => {
    for (const date of ['yesterday at noon', 'noon 3pm', 'the day after tomorrow']) {
      const res = await svc.request('POST', '/events', {
        form: { title: 'x', start_date: date, end_date: 'tomorrow' },
        as: 'author',
      });
      expect(res.status, date).toBe(400);
      expect(res.body.code).toBe('rest_invalid_param');
    }
  });
});
