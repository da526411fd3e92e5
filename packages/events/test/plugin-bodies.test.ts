import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORES, startService, createEvent, type Service } from './support/harness.ts';

// Behaviours of The Events Calendar 6.17.2 that the conformance kit recorded and clients see in bodies and lists.
describe.each(STORES)('plugin bodies and list rules ($name)', (factory) => {
  let svc: Service;
  beforeAll(async () => {
    svc = await startService(factory);
  });
  afterAll(() => svc.close());
  const window = { start_date: '2030-01-01', end_date: '2030-12-31 23:59:59' };
  const titles = async (query: Record<string, string>) =>
    (await svc.get('/events', { query: { ...window, ...query }, as: 'administrator' })).body.events.map(
      (e: { title: string }) => e.title,
    );

  it('lists events of a category and of its descendants, and reads tag values as slugs', async () => {
    const parent = (await svc.post('/categories', { name: 'Parent cat' })).body;
    const child = (await svc.post('/categories', { name: 'Child cat', parent: parent.id })).body;
    const grandchild = (await svc.post('/categories', { name: 'Grandchild cat', parent: child.id })).body;
    const kids = (await svc.post('/tags', { name: 'Kids' })).body;
    const other = (await svc.post('/tags', { name: 'Other' })).body;
    await createEvent(svc, {
      title: 'In grandchild',
      start_date: '2030-03-01 10:00',
      end_date: '2030-03-01 11:00',
      categories: [grandchild.id],
      tags: [other.id],
    });
    await createEvent(svc, {
      title: 'In parent',
      start_date: '2030-03-02 10:00',
      end_date: '2030-03-02 11:00',
      categories: [parent.id],
      tags: [kids.id],
    });
    expect(await titles({ categories: 'parent-cat' })).toEqual(['In grandchild', 'In parent']);
    expect(await titles({ categories: String(child.id) })).toEqual(['In grandchild']);
    // WordPress's `tag` query var takes slugs: a tag id matches only a tag whose slug it is.
    expect(await titles({ tags: `kids,${other.id}` })).toEqual(['In parent']);
  });

  it('keeps an event whose UTC end precedes its start out of lists but readable by id', async () => {
    const e = await createEvent(svc, {
      title: 'Inverted',
      all_day: true,
      start_date: '2030-06-25',
      end_date: '2030-06-23',
    });
    expect(e).toMatchObject({
      start_date: '2030-06-25 00:00:00',
      end_date: '2030-06-25 00:00:00',
      utc_end_date: '2030-06-23 23:59:59',
    });
    expect(await titles({})).not.toContain('Inverted');
    expect((await svc.get(`/events/${e.id}`)).status).toBe(200);
  });

  it('trashes to a ?p= link, restores the slug, and names a trashed draft __trashed', async () => {
    const e = await createEvent(svc, {
      title: 'Phoenix',
      start_date: '2030-04-01 10:00',
      end_date: '2030-04-01 11:00',
    });
    const trashed = await svc.request('DELETE', `/events/${e.id}`, { as: 'administrator' });
    expect(trashed.body).toMatchObject({
      status: 'trash',
      slug: 'phoenix__trashed',
      url: `http://wordpress.test/?post_type=tribe_events&p=${e.id}`,
    });
    const back = await svc.request('PATCH', `/events/${e.id}`, { json: { status: 'publish' }, as: 'administrator' });
    expect(back.body).toMatchObject({ slug: 'phoenix', url: 'http://wordpress.test/event/phoenix/' });
    const draft = await createEvent(svc, {
      title: 'Drafty',
      status: 'draft',
      start_date: '2030-04-02 10:00',
      end_date: '2030-04-02 11:00',
    });
    const gone = (await svc.request('DELETE', `/events/${draft.id}`, { as: 'administrator' })).body;
    expect(gone).toMatchObject({ slug: '__trashed', date_utc: gone.date });
  });

  it('finds an event by a slug with non-ASCII characters sent decoded', async () => {
    const e = await createEvent(svc, {
      title: 'Crème Brûlée ☕',
      start_date: '2030-05-01 10:00',
      end_date: '2030-05-01 11:00',
    });
    expect(e.slug).toBe('creme-brulee-%e2%98%95');
    expect((await svc.get(`/events/by-slug/${encodeURIComponent('creme-brulee-☕')}`)).body.id).toBe(e.id);
  });

  it('stores no cost for JSON null or a lone 0, and a texturized ampersand in titles', async () => {
    const nul = await svc.request('POST', '/events', {
      json: { title: 'Tea & cake', start_date: '2030-05-02 10:00', end_date: '2030-05-02 11:00', cost: null },
      as: 'administrator',
    });
    expect(nul.status).toBe(201);
    expect(nul.body).toMatchObject({
      title: 'Tea &#038; cake',
      cost: '',
      cost_details: { currency_symbol: '', currency_code: '', currency_position: '', values: [] },
    });
    expect(
      (
        await createEvent(svc, {
          title: 'Zero',
          cost: '0',
          start_date: '2030-05-02 10:00',
          end_date: '2030-05-02 11:00',
        })
      ).cost,
    ).toBe('');
  });

  it('derives a venue stateprovince from what each write sends, and keeps a reused venue post unchanged', async () => {
    const v = (
      await svc.post('/venues', {
        venue: 'Lake Hall',
        city: 'Munich',
        country: 'Germany',
        province: 'Bavaria',
        date: '2020-01-01 00:00:00',
      })
    ).body;
    expect(v.stateprovince).toBe('Bavaria');
    svc.clock.now += 60_000;
    const again = (await svc.post('/venues', { venue: 'Lake Hall', city: 'Augsburg', date: '2021-01-01 00:00:00' }))
      .body;
    expect(again).toMatchObject({
      id: v.id,
      city: 'Augsburg',
      date: '2020-01-01 00:00:00',
      modified: '2020-01-01 00:00:00',
      province: 'Bavaria',
    });
    expect(again).not.toHaveProperty('stateprovince');
    const e = await createEvent(svc, {
      title: 'At the lake',
      venue: v.id,
      start_date: '2030-05-03 10:00',
      end_date: '2030-05-03 11:00',
    });
    // JSON-LD's region falls back to the province outside the United States.
    expect((await svc.get(`/events/${e.id}`)).body.json_ld.location.address.addressRegion).toBe('Bavaria');
  });

  it('creates an event without organizer for organizer "", and links a single inline organizer object', async () => {
    const none = await svc.request('POST', '/events', {
      json: { title: 'No org', start_date: '2030-05-04 10:00', end_date: '2030-05-04 11:00', organizer: '' },
      as: 'administrator',
    });
    expect(none.status).toBe(201);
    expect(none.body.organizer).toEqual([]);
    const one = await svc.request('POST', '/events', {
      json: {
        title: 'One org',
        start_date: '2030-05-04 10:00',
        end_date: '2030-05-04 11:00',
        organizer: { organizer: 'Solo Org', email: 'solo@example.org' },
      },
      as: 'administrator',
    });
    expect(one.body.organizer.map((o: { organizer: string; email: string }) => [o.organizer, o.email])).toEqual([
      ['Solo Org', 'solo@example.org'],
    ]);
    const byId = await svc.request('POST', '/events', {
      json: {
        title: 'Org by id',
        start_date: '2030-05-04 10:00',
        end_date: '2030-05-04 11:00',
        organizer: { id: one.body.organizer[0].id },
      },
      as: 'administrator',
    });
    expect(byId.body.organizer.map((o: { id: number }) => o.id)).toEqual([one.body.organizer[0].id]);
  });

  it('ignores a category made its own parent', async () => {
    const c = (await svc.post('/categories', { name: 'Selfish' })).body;
    const res = await svc.request('PATCH', `/categories/${c.id}`, { json: { parent: c.id }, as: 'administrator' });
    expect(res.status).toBe(200);
    expect(res.body.parent).toBe(0);
  });
});
