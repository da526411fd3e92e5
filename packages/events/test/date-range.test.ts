import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Sqlite from 'better-sqlite3';
import pg from 'pg';
import { pino } from 'pino';
import { reportBadStoredDates } from '../src/event/index.ts';
import { STORES, startService, createEvent, countWritten, type Service } from './support/harness.ts';

const HUGE = [
  '+99999999999 years',
  '@99999999999999999',
  '@-99999999999999',
  '0999-12-31 23:59:59',
  '10000-01-01',
  '-5000 years',
];
const minimal = { title: 'Out of range', start_date: '2018-01-12 10:00:00', end_date: '2018-01-12 11:00:00' };

describe.each(STORES)('dates outside 1000-01-01 00:00:00 … 9999-12-31 23:59:59 ($name)', (factory) => {
  let svc: Service;
  let eventId: number;
  let venueId: number;
  beforeAll(async () => {
    svc = await startService(factory);
    const e = await createEvent(svc, { title: 'Kept', venue: { venue: 'Hall' } });
    eventId = e.id;
    venueId = e.venue.id;
  });
  afterAll(() => svc.close());

  const expectRangeError = (
    res: { status: number; body: { code: string; data: { params: Record<string, string> } } },
    field: string,
  ) => {
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('rest_invalid_param');
    expect(res.body.data.params[field]).toMatch(
      /between 1000-01-01 00:00:00 and 9999-12-31 23:59:59|Invalid parameter/,
    );
  };

  it('refuses them on create and update for every date field, as the author or the administrator, writing nothing', async () => {
    const before = await countWritten(svc);
    for (const value of HUGE) {
      for (const field of ['start_date', 'end_date', 'date', 'date_utc']) {
        expectRangeError(
          await svc.request('POST', '/events', { json: { ...minimal, [field]: value }, as: 'author' }),
          field,
        );
        expectRangeError(
          await svc.request('PUT', `/events/${eventId}`, { json: { [field]: value }, as: 'administrator' }),
          field,
        );
      }
      expectRangeError(await svc.request('POST', `/venues/${venueId}`, { json: { date: value } }), 'date');
      expectRangeError(
        await svc.request('POST', `/organizers`, { json: { organizer: 'O', date_utc: value } }),
        'date_utc',
      );
    }
    expect(await countWritten(svc)).toEqual(before);
    expect((await svc.get(`/events/${eventId}`)).body.start_date).toBe('2018-01-12 10:00:00');
  });

  it('refuses a wall time in range whose UTC time is not, and accepts the bounds themselves', async () => {
    const late = {
      ...minimal,
      start_date: '9999-12-31 20:00:00',
      end_date: '9999-12-31 22:00:00',
      timezone: 'Asia/Tokyo',
    };
    expectRangeError(
      await svc.request('POST', '/events', { json: { ...late, timezone: 'America/New_York' }, as: 'administrator' }),
      'start_date',
    );
    const tokyo = await svc.request('POST', '/events', { json: late, as: 'administrator' });
    expect(tokyo.status).toBe(201);
    expect(tokyo.body.utc_end_date).toBe('9999-12-31 13:00:00');
    const bounds = await svc.request('POST', '/events', {
      json: { ...minimal, start_date: '1000-01-01 00:00:00', end_date: '9999-12-31 23:59:59' },
      as: 'administrator',
    });
    expect(bounds.status).toBe(201);
    expect([bounds.body.start_date, bounds.body.end_date]).toEqual(['1000-01-01 00:00:00', '9999-12-31 23:59:59']);
  });

  it('answers out-of-range list filters with 400, not 500', async () => {
    for (const filter of ['start_date', 'end_date', 'starts_before', 'starts_after', 'ends_before', 'ends_after']) {
      for (const value of ['+99999999999 years', '@99999999999999999']) {
        expectRangeError(await svc.get('/events', { query: { [filter]: value } }), filter);
      }
    }
  });
});

/** Runs SQL through a connection of its own, as an operator's tool would (the service sees it as a foreign commit). */
async function operatorSql(svc: Service, text: string, params: unknown[]): Promise<void> {
  if (svc.dbUrl.startsWith('sqlite:')) {
    const db = new Sqlite(svc.dbUrl.slice('sqlite:'.length));
    try {
      db.prepare(text.replace(/\$\d+/g, '?')).run(...params);
    } finally {
      db.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: svc.dbUrl });
  await client.connect();
  try {
    await client.query(text, params);
  } finally {
    await client.end();
  }
}

describe.each(STORES)('a row with broken dates written by SQL ($name)', (factory) => {
  let svc: Service;
  let badId: number;
  let goodId: number;
  beforeAll(async () => {
    svc = await startService(factory);
    goodId = (await createEvent(svc, { title: 'Fine' })).id;
    badId = (await createEvent(svc, { title: 'Broken', categories: ['Cat'] })).id;
    const nan = 'NaN-NaN-NaN NaN:NaN:NaN';
    await operatorSql(svc, 'update events set start_local = $1, start_utc = $2, end_local = $3 where post_id = $4', [
      nan,
      nan,
      '+99999-01-01 00:00:00',
      badId,
    ]);
    await operatorSql(svc, 'update posts set date_gmt = $1 where id = $2', [nan, badId]);
  });
  afterAll(() => svc.close());

  it('is served with its broken dates shown as "" by id, and skipped without an error by ?include= and date filters', async () => {
    const one = await svc.get(`/events/${badId}`);
    expect(one.status).toBe(200);
    expect([one.body.start_date, one.body.utc_start_date, one.body.end_date, one.body.date_utc]).toEqual([
      '',
      '',
      '',
      '',
    ]);
    expect(one.body.start_date_details.year).toBe('');
    expect(one.body.json_ld.startDate).toBeUndefined();
    // Lists answer 200 and skip the broken row: with no readable start it has no occurrence, like an event whose end
    // precedes its start (TEC lists neither); by id it stays readable, above.
    const included = await svc.get('/events', { query: { include: `${goodId},${badId}` } });
    expect(included.status).toBe(200);
    expect(included.body.events.map((e: { id: number }) => e.id)).toEqual([goodId]);
    const listed = await svc.get('/events', { query: { starts_before: '2030-01-01' } });
    expect(listed.status).toBe(200);
    expect(listed.body.events.map((e: { id: number }) => e.id)).toContain(goodId);
    expect((await svc.get('/categories')).status).toBe(200);
  });

  it('is reported by the start-up check with how to repair it', async () => {
    const lines: string[] = [];
    const logger = pino(
      { level: 'warn' },
      {
        write: (line: string) => {
          lines.push(line);
        },
      },
    );
    const bad = await reportBadStoredDates(svc.store.db, logger);
    expect(bad.map((b) => [b.id, b.column]).sort()).toEqual(
      [
        [badId, 'date_gmt'],
        [badId, 'end_local'],
        [badId, 'start_local'],
        [badId, 'start_utc'],
      ].sort(),
    );
    expect(lines).toHaveLength(4);
    expect(lines.join('\n')).toContain(`PUT /wp-json/tribe/events/v1/events/${badId} with start_date and end_date`);
  });

  it('takes an update of other fields, asks for both dates to change one, and is repaired by sending them', async () => {
    expect(
      (await svc.request('POST', `/events/${badId}`, { json: { title: 'Still broken' }, as: 'administrator' })).status,
    ).toBe(200);
    const one = await svc.request('POST', `/events/${badId}`, {
      json: { end_date: '2018-03-01 12:00:00' },
      as: 'administrator',
    });
    expect(one.status).toBe(400);
    expect(one.body.data.params.start_date).toMatch(/stored start_date is invalid/);
    const fixed = await svc.request('POST', `/events/${badId}`, {
      json: { start_date: '2018-03-01 10:00:00', end_date: '2018-03-01 12:00:00' },
      as: 'administrator',
    });
    expect(fixed.status).toBe(200);
    expect(fixed.body.utc_start_date).toBe('2018-03-01 10:00:00');
  });

  it('can be trashed by an administrator', async () => {
    await operatorSql(svc, 'update events set start_local = $1 where post_id = $2', ['garbage', badId]);
    const res = await svc.request('DELETE', `/events/${badId}`, { as: 'administrator' });
    expect(res.status).toBe(200);
    expect(res.body.start_date).toBe('');
  });
});
