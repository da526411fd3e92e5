import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { STORES, startService, createEvent, type Service } from './support/harness.ts';

const BIN = fileURLToPath(new URL('../bin/events.js', import.meta.url));
const run = promisify(execFile);

/** PostgreSQL tells the server about the CLI's change just after its commit; SQLite on the next read. */
async function eventually<T>(read: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  const until = Date.now() + 2000;
  for (;;) {
    const v = await read();
    if (ok(v) || Date.now() > until) return v;
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe.each(STORES)('password-protected posts ($name)', (factory) => {
  let svc: Service;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are asserted field by field
  let event: any;
  beforeAll(async () => {
    svc = await startService(factory);
    event = await createEvent(svc, {
      title: 'Secret gig',
      description: 'Backstage entrance',
      excerpt: 'Short',
      cost: '15',
      website: 'http://gig.test',
      status: 'publish',
      featured: 'true',
      categories: 'Music',
      tags: 'Late',
      venue: {
        venue: 'Hidden cellar',
        address: '1 Quiet lane',
        city: 'Paris',
        country: 'France',
        zip: '75001',
        phone: '555',
        website: 'http://cellar.test',
      },
      organizer: { organizer: 'Night crew', email: 'crew@example.test', phone: '556', website: 'http://crew.test' },
    });
    await run(process.execPath, [BIN, 'protect', String(event.id), 'open sesame', '--db', svc.dbUrl]);
    await run(process.execPath, [BIN, 'protect', String(event.venue.id), 'cellar pw', '--db', svc.dbUrl]);
    await run(process.execPath, [BIN, 'protect', String(event.organizer[0].id), 'crew pw', '--db', svc.dbUrl]);
  });
  afterAll(() => svc.close());

  it('a single GET of a protected event is 403 event-password-protected, even though it was cached before', async () => {
    const res = await eventually(
      () => svc.get(`/events/${event.id}`),
      (r) => r.status === 403,
    );
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      code: 'event-password-protected',
      message: 'The requested event is not accessible without a password',
      data: { status: 403 },
    });
    expect((await svc.get(`/events/${event.id}`, { query: { password: 'wrong' } })).status).toBe(403);
    expect((await svc.get(`/events/${event.id}`, { query: { password: 'open sesam' } })).status).toBe(403);
  });

  it('the right password, or context=edit by someone who may edit it, shows the whole event', async () => {
    const withPw = await svc.get(`/events/${event.id}`, { query: { password: 'open sesame' } });
    expect(withPw.status).toBe(200);
    expect(withPw.body.description).toBe('<p>Backstage entrance</p>');
    expect(withPw.body.json_ld).toBeDefined();
    const asEditor = await svc.get(`/events/${event.id}`, { query: { context: 'edit' }, as: 'editor' });
    expect(asEditor.status).toBe(200);
    expect(asEditor.body.cost).toBe('$15');
    // A contributor may not edit the administrator's event, an anonymous reader may not edit at all.
    expect((await svc.get(`/events/${event.id}`, { query: { context: 'edit' }, as: 'contributor' })).status).toBe(403);
    expect((await svc.get(`/events/${event.id}`, { query: { context: 'edit' } })).status).toBe(403);
    expect((await svc.get(`/events/${event.id}`, { as: 'administrator' })).status).toBe(403);
  });

  it('lists include a protected event with its fields blanked; title, dates and status stay', async () => {
    const list = await svc.get('/events', { query: { search: 'Secret gig', start_date: '2018-01-01' } });
    expect(list.body.events).toHaveLength(1);
    const e = list.body.events[0];
    expect(e).toMatchObject({
      id: event.id,
      title: 'Secret gig',
      status: 'publish',
      start_date: event.start_date,
      end_date: event.end_date,
      description: '',
      excerpt: '',
      cost: '',
      website: '',
      image: false,
      all_day: null,
      show_map: null,
      show_map_link: null,
      hide_from_listings: null,
      sticky: null,
      featured: null,
      cost_details: { currency_symbol: '', currency_code: '', currency_position: '', values: [] },
      categories: [],
      tags: [],
      venue: [],
      organizer: [],
      custom_fields: [],
    });
    expect(JSON.stringify(e)).not.toMatch(/Backstage|Hidden cellar|Night crew/);
  });

  it('a protected venue answers 200 with its fields blanked and the name as [], unless unlocked', async () => {
    const res = await svc.get(`/venues/${event.venue.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: event.venue.id,
      venue: [],
      description: '',
      address: '',
      city: '',
      country: '',
      province: '',
      stateprovince: '',
      zip: '',
      phone: '',
      website: '',
      show_map: null,
      show_map_link: null,
    });
    expect(res.body.json_ld).toBeUndefined();
    expect(JSON.stringify(res.body)).not.toMatch(/Quiet lane|Hidden cellar/);
    const unlocked = await svc.get(`/venues/${event.venue.id}`, { query: { password: 'cellar pw' } });
    expect(unlocked.body).toMatchObject({ venue: 'Hidden cellar', address: '1 Quiet lane', city: 'Paris' });
    expect((await svc.get(`/venues/${event.venue.id}`, { query: { context: 'edit' }, as: 'editor' })).body.city).toBe(
      'Paris',
    );
    const listed = await svc.get('/venues', { query: { search: 'Hidden' } });
    expect(JSON.stringify(listed.body)).not.toMatch(/Quiet lane/);
  });

  it('a protected organizer is blanked the same way, on its own route and inside events', async () => {
    const res = await svc.get(`/organizers/${event.organizer[0].id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ organizer: [], description: '', phone: '', website: '', email: '' });
    expect((await svc.get(`/organizers/${event.organizer[0].id}`, { query: { password: 'crew pw' } })).body.email).toBe(
      'crew@example.test',
    );
    // The event itself unlocked does not unlock the places and people it links to.
    const whole = await svc.get(`/events/${event.id}`, { query: { password: 'open sesame' } });
    expect(whole.body.venue).toMatchObject({ venue: [], city: '' });
    expect(whole.body.organizer[0]).toMatchObject({ organizer: [], email: '' });
    expect(JSON.stringify(whole.body.json_ld)).not.toMatch(/Quiet lane|crew@example/);
  });

  it('unprotect restores every reader; the CLI refuses unknown ids and empty passwords', async () => {
    await run(process.execPath, [BIN, 'unprotect', String(event.id), '--db', svc.dbUrl]);
    const res = await eventually(
      () => svc.get(`/events/${event.id}`),
      (r) => r.status === 200,
    );
    expect(res.status).toBe(200);
    await expect(run(process.execPath, [BIN, 'protect', '999999', 'pw', '--db', svc.dbUrl])).rejects.toMatchObject({
      stderr: expect.stringContaining('no event, venue or organizer has id 999999'),
    });
    await expect(
      run(process.execPath, [BIN, 'protect', String(event.id), '', '--db', svc.dbUrl]),
    ).rejects.toMatchObject({ stderr: expect.stringContaining('must not be empty') });
    await expect(run(process.execPath, [BIN, 'protect', 'abc', 'pw', '--db', svc.dbUrl])).rejects.toMatchObject({
      stderr: expect.stringContaining('positive integer'),
    });
  });
});
