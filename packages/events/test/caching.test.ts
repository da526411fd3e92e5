import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { sql } from 'kysely';
import { STORES, startService, startSibling, createEvent, type Service } from './support/harness.ts';
import { openStore } from '../src/db/index.ts';
import { CHANGE_LISTENER_NAME } from '../src/db/change-signal.ts';

// Cached answers must never outlive a change (compat §0.7): these run with a 10-minute response TTL, so only the
// write generation and the store's change signal can explain a fresh answer.
const LONG_TTL = { EVENTS_CACHE_TTL_MS: '600000' };

/** PostgreSQL delivers NOTIFY after commit, asynchronously: allow it a moment (far below any TTL). */
async function eventually<T>(read: () => Promise<T>, ok: (v: T) => boolean, ms = 2000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (ok(v) || Date.now() > until) return v;
    await new Promise((r) => setTimeout(r, 20));
  }
}

const titleOn = async (on: Pick<Service, 'get'>, id: number, as?: 'administrator') =>
  (await on.get(`/events/${id}`, as ? { as } : {})).body.title as string;

describe.each(STORES)('cached reads follow every change ($name)', (factory) => {
  let svc: Service;
  let sibling: Awaited<ReturnType<typeof startSibling>>;
  beforeAll(async () => {
    svc = await startService(factory, { env: LONG_TTL });
    sibling = await startSibling(svc, { env: LONG_TTL });
  });
  afterAll(async () => {
    await sibling.close();
    await svc.close();
  });

  it('an update shows at once in the item, for anonymous and logged-in readers', async () => {
    const e = await createEvent(svc, { title: 'Before', status: 'publish' });
    expect(await titleOn(svc, e.id)).toBe('Before');
    expect(await titleOn(svc, e.id)).toBe('Before'); // served from the caches now
    expect(await titleOn(svc, e.id, 'administrator')).toBe('Before');
    expect(
      (await svc.request('PATCH', `/events/${e.id}`, { form: { title: 'After' }, as: 'administrator' })).status,
    ).toBe(200);
    expect(await titleOn(svc, e.id)).toBe('After');
    expect(await titleOn(svc, e.id, 'administrator')).toBe('After');
  });

  it('by-slug reads follow updates and slug changes', async () => {
    const e = await createEvent(svc, { title: 'Slug reader', status: 'publish' });
    const bySlug = (slug: string) => svc.get(`/events/by-slug/${slug}`);
    expect((await bySlug(e.slug)).body.title).toBe('Slug reader');
    expect((await bySlug(e.slug)).body.id).toBe(e.id);
    await svc.request('PATCH', `/events/${e.id}`, { form: { title: 'Slug reader, updated' }, as: 'administrator' });
    expect((await bySlug(e.slug)).body.title).toBe('Slug reader, updated');
    await svc.request('PATCH', `/events/${e.id}`, { form: { slug: 'moved-elsewhere' }, as: 'administrator' });
    expect((await bySlug(e.slug)).status).toBe(400);
    expect((await bySlug('moved-elsewhere')).body.id).toBe(e.id);
  });

  it('list items built for one page or filter are reused by others, and follow every change', async () => {
    const e = await createEvent(svc, {
      title: 'Listed twice',
      status: 'publish',
      start_date: '2018-03-05 10:00:00',
      end_date: '2018-03-05 11:00:00',
    });
    const titles = async (query: Record<string, string | number>) =>
      ((await svc.get('/events', { query, as: 'administrator' })).body.events as { id: number; title: string }[])
        .filter((x) => x.id === e.id)
        .map((x) => x.title);
    const march = { start_date: '2018-03-01', end_date: '2018-03-31' };
    const week = { start_date: '2018-03-04', end_date: '2018-03-10', per_page: 5 };
    expect(await titles(march)).toEqual(['Listed twice']);
    expect(await titles(week)).toEqual(['Listed twice']); // built for the first list, served to this one
    await svc.request('PATCH', `/events/${e.id}`, {
      form: { title: 'Listed, renamed', featured: 'true' },
      as: 'administrator',
    });
    expect(await titles(week)).toEqual(['Listed, renamed']);
    expect(await titles({ ...march, featured: 1 })).toEqual(['Listed, renamed']);
    const single = (await svc.get(`/events/${e.id}`)).body;
    const listed = ((await svc.get('/events', { query: march })).body.events as { id: number }[]).find(
      (x) => x.id === e.id,
    );
    // A list item is the single body without json_ld (compat §1.3), whichever was built first.
    const { json_ld: _ld, ...withoutLd } = single;
    expect(listed).toEqual(withoutLd);
  });

  it('renaming a linked venue changes the cached event body', async () => {
    const e = await createEvent(svc, { title: 'With venue', status: 'publish', venue: { venue: 'Old hall' } });
    expect((await svc.get(`/events/${e.id}`)).body.venue.venue).toBe('Old hall');
    await svc.request('POST', `/venues/${e.venue.id}`, { form: { venue: 'New hall' }, as: 'administrator' });
    expect((await svc.get(`/events/${e.id}`)).body.venue.venue).toBe('New hall');
  });

  it('a write through another instance shows on this one at once, in items and lists', async () => {
    const e = await createEvent(svc, { title: 'Shared', status: 'publish' });
    const listed = async () =>
      ((await sibling.get('/events', { query: { search: 'Shared' } })).body.events as { title: string }[]).map(
        (x) => x.title,
      );
    expect(await titleOn(sibling, e.id)).toBe('Shared');
    expect(await listed()).toEqual(['Shared']);
    await svc.request('PATCH', `/events/${e.id}`, { form: { title: 'Shared, renamed' }, as: 'administrator' });
    const wait = factory.name === 'postgres' ? 2000 : 0; // SQLite sees it on the very next read
    expect(
      await eventually(
        () => titleOn(sibling, e.id),
        (t) => t === 'Shared, renamed',
        wait,
      ),
    ).toBe('Shared, renamed');
    expect(await eventually(listed, (t) => t[0] === 'Shared, renamed', wait)).toEqual(['Shared, renamed']);
  });

  it('a change made outside the service (an operator with SQL) shows at once', async () => {
    const e = await createEvent(svc, { title: 'Operator target', status: 'publish' });
    expect(await titleOn(svc, e.id)).toBe('Operator target');
    const other = await openStore(svc.dbUrl);
    await other.db.updateTable('posts').set({ title: 'Fixed by hand' }).where('id', '=', e.id).execute();
    await other.close();
    const wait = factory.name === 'postgres' ? 2000 : 0;
    expect(
      await eventually(
        () => titleOn(svc, e.id),
        (t) => t === 'Fixed by hand',
        wait,
      ),
    ).toBe('Fixed by hand');
  });
});

describe('PostgreSQL change listener', () => {
  let svc: Service;
  let sibling: Awaited<ReturnType<typeof startSibling>>;
  beforeAll(async () => {
    svc = await startService(
      STORES.find((s) => s.name === 'postgres')!,
      { env: LONG_TTL },
    );
    sibling = await startSibling(svc, { env: LONG_TTL });
  });
  afterAll(async () => {
    await sibling.close();
    await svc.close();
  });

  it('when the change listener is cut off, no stale answer is served meanwhile', async () => {
    const e = await createEvent(svc, { title: 'Listener test', status: 'publish' });
    expect(await titleOn(svc, e.id)).toBe('Listener test');
    const admin = new pg.Client({ connectionString: svc.dbUrl });
    await admin.connect();
    // Cut every listening connection of this database, then change the row while nobody listens.
    const cut = await admin.query(
      `select pg_terminate_backend(pid) from pg_stat_activity
      where datname = current_database() and application_name = $1 and pid <> pg_backend_pid()`,
      [CHANGE_LISTENER_NAME],
    );
    expect(cut.rowCount).toBeGreaterThanOrEqual(2);
    await admin.query('update posts set title = $1 where id = $2', ['Changed unheard', e.id]);
    await admin.end();
    expect(
      await eventually(
        () => titleOn(svc, e.id),
        (t) => t === 'Changed unheard',
        500,
      ),
    ).toBe('Changed unheard');
    // The listener comes back by itself and caching resumes: a later change is seen too.
    await new Promise((r) => setTimeout(r, 1500));
    const listeners = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
      where datname = current_database() and application_name = ${CHANGE_LISTENER_NAME}`.execute(svc.store.db);
    expect(listeners.rows[0]!.n).toBeGreaterThanOrEqual(2);
    await svc.request('PATCH', `/events/${e.id}`, { form: { title: 'Heard again' }, as: 'administrator' });
    expect(
      await eventually(
        () => titleOn(sibling, e.id),
        (t) => t === 'Heard again',
      ),
    ).toBe('Heard again');
  });
});
