import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORES, startService, type Service, type RoleLogin } from './support/harness.ts';
import { activeContent, activeContentIn } from './support/inert-html.ts';

const PAYLOADS: string[] = JSON.parse(
  readFileSync(new URL('./fixtures/xss-payloads.json', import.meta.url), 'utf8'),
).payloads;
const DATES = { start_date: '2018-02-01 10:00:00', end_date: '2018-02-01 12:00:00' };

/** One event write that puts `payload` into every text field an author can reach, inline venue, organizer and terms too. */
const everywhere = (i: number, payload: string) => ({
  ...DATES,
  title: `T${i} ${payload}`,
  description: payload,
  excerpt: payload,
  cost: `${payload} 10`,
  venue: {
    venue: `V${i} ${payload}`,
    address: payload,
    city: payload,
    zip: payload,
    phone: payload,
    description: payload,
  },
  organizer: { organizer: `O${i} ${payload}`, email: payload, phone: payload, description: payload },
  categories: [`C${i} ${payload}`],
  tags: [`G${i} ${payload}`],
});

describe.each(STORES)('kses for writers without unfiltered_html ($name)', (factory) => {
  let svc: Service;
  beforeAll(async () => {
    svc = await startService(factory);
  });
  afterAll(() => svc.close());

  /** Every text column that a write of these routes can fill, straight from the store. */
  async function storedText(): Promise<unknown[]> {
    const db = svc.store.db;
    return [
      await db.selectFrom('posts').select(['title', 'content', 'excerpt']).execute(),
      await db.selectFrom('venues').selectAll().execute(),
      await db.selectFrom('organizers').selectAll().execute(),
      await db.selectFrom('terms').select(['name', 'description']).execute(),
    ];
  }

  it('the inertness check itself flags most raw payloads (so a pass below means something)', () => {
    const flagged = PAYLOADS.filter((p) => activeContent(p).length > 0);
    expect(PAYLOADS.length).toBeGreaterThanOrEqual(100);
    expect(flagged.length / PAYLOADS.length).toBeGreaterThan(0.8);
  });

  it('keeps nothing executable from any payload an author sends in events, inline venues, organizers and terms', async () => {
    const ids: number[] = [];
    const send = async (payload: string, i: number) => {
      const res = await svc.request('POST', '/events', { json: everywhere(i, payload), as: 'author' });
      expect(res.status, `${payload} → ${res.text}`).toBe(201);
      expect(activeContentIn(res.body), payload).toEqual([]);
      ids.push(res.body.id);
      const cat = await svc.request('POST', '/categories', {
        json: { name: `K${i} ${payload}`, description: payload },
        as: 'author',
      });
      expect([201, 400], `${payload} → ${cat.text}`).toContain(cat.status);
      expect(activeContentIn(cat.body), payload).toEqual([]);
    };
    // A few writers at a time, as real clients would: the filters hold under concurrency and the test stays short.
    for (let start = 0; start < PAYLOADS.length; start += 8) {
      await Promise.all(PAYLOADS.slice(start, start + 8).map((payload, k) => send(payload, start + k)));
    }
    for (const id of ids.slice(0, 20)) expect(activeContentIn((await svc.get(`/events/${id}`)).body)).toEqual([]);
    for (let page = 1; page <= Math.ceil(ids.length / 50); page++) {
      const list = await svc.get('/events', { query: { start_date: '2018-01-01', per_page: 50, page } });
      expect(list.status).toBe(200);
      expect(activeContentIn(list.body)).toEqual([]);
    }
    for (const path of ['/venues', '/organizers', '/categories', '/tags']) {
      expect(activeContentIn((await svc.get(path, { query: { per_page: 50 } })).body), path).toEqual([]);
    }
    expect(activeContentIn(await storedText())).toEqual([]);
  });

  it('filters updates too: PATCH of an event, a venue and a term by a contributor or author', async () => {
    const own = await svc.request('POST', '/events', { json: { ...DATES, title: 'Plain' }, as: 'contributor' });
    const venue = await svc.request('POST', '/venues', { json: { venue: 'Plain hall' }, as: 'author' });
    const cat = await svc.request('POST', '/categories', { json: { name: 'Plain cat' }, as: 'author' });
    for (const payload of PAYLOADS.filter((_, i) => i % 4 === 2)) {
      const e = await svc.request('PATCH', `/events/${own.body.id}`, {
        json: { title: payload, description: payload, excerpt: payload },
        as: 'contributor',
      });
      expect(e.status).toBe(200);
      const v = await svc.request('PATCH', `/venues/${venue.body.id}`, {
        json: { venue: `Hall ${payload}`, address: payload, description: payload },
        as: 'author',
      });
      expect(v.status).toBe(200);
      const c = await svc.request('PATCH', `/categories/${cat.body.id}`, {
        json: { description: payload },
        as: 'author',
      });
      expect(c.status).toBe(200);
      expect(activeContentIn([e.body, v.body, c.body]), payload).toEqual([]);
    }
    expect(activeContentIn(await storedText())).toEqual([]);
  });

  it('keeps benign markup as kses does: post tags in descriptions, the small set in titles', async () => {
    const html =
      '<p>Doors at <strong>7</strong>, <em>see</em> <a href="https://example.org/map?a=1&amp;b=2" title="Map">the map</a></p>';
    const e = await svc.request('POST', '/events', {
      json: {
        ...DATES,
        title: '<b>Bold</b> <i>night</i> <img src="https://example.org/x.png">',
        description: html,
        excerpt: '<p style="text-align: center">short</p>',
      },
      as: 'author',
    });
    expect(e.status).toBe(201);
    const row = await svc.store.db
      .selectFrom('posts')
      .select(['title', 'content', 'excerpt'])
      .where('id', '=', e.body.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      title: '<b>Bold</b> <i>night</i> ',
      content: html,
      excerpt: '<p style="text-align:center">short</p>',
    });
    expect(e.body.description).toContain('<a href="https://example.org/map?a=1&amp;b=2" title="Map">the map</a>');
    const cat = await svc.request('POST', '/categories', {
      json: { name: '<strong>Jazz</strong><script>x()</script>' },
      as: 'author',
    });
    expect(cat.body.name).toBe('<strong>Jazz</strong>');
  });

  it('answers 400, not 500, when a term name is only markup', async () => {
    const res = await svc.request('POST', '/categories', { json: { name: '<script>alert(1)</script>' }, as: 'author' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'rest_invalid_param',
      data: { status: 400, params: { name: 'A name is required for this term.' } },
    });
  });

  it('stores website URLs with a disallowed protocol as empty for authors', async () => {
    const website = 'javascript://example.org/%0aalert(1)';
    const e = await svc.request('POST', '/events', {
      json: { ...DATES, title: 'Site', website, venue: { venue: 'Site hall', website } },
      as: 'author',
    });
    expect(e.status).toBe(201);
    expect(e.body.website).toBe('');
    expect(e.body.venue.website).toBeUndefined();
    const ok = await svc.request('POST', '/organizers', {
      json: { organizer: 'Fine org', website: 'https://example.org/o' },
      as: 'author',
    });
    expect(ok.body.website).toBe('https://example.org/o');
  });

  it.each(['administrator', 'editor'] as RoleLogin[])(
    'keeps the HTML of an %s (unfiltered_html) exactly as sent',
    async (role) => {
      const html =
        '<p onclick="track()">Hi</p><script>widget()</script><iframe src="https://player.example/1"></iframe>';
      const e = await svc.request('POST', '/events', {
        json: {
          ...DATES,
          title: `<span style="color:red">${role}</span>`,
          description: html,
          venue: { venue: `Hall of ${role}`, description: html },
        },
        as: role,
      });
      expect(e.status).toBe(201);
      const row = await svc.store.db
        .selectFrom('posts')
        .select(['title', 'content'])
        .where('id', '=', e.body.id)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ title: `<span style="color:red">${role}</span>`, content: html });
      const venue = await svc.store.db
        .selectFrom('posts')
        .select('content')
        .where('id', '=', e.body.venue.id)
        .executeTakeFirstOrThrow();
      expect(venue.content).toBe(html);
    },
  );
});
