import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORES, startService, createEvent, type Service } from './support/harness.ts';

describe.each(STORES)('categories and tags ($name)', (factory) => {
  let svc: Service;
  beforeAll(async () => {
    svc = await startService(factory);
  });
  afterAll(() => svc.close());

  it("keeps term id 1 for WordPress's Uncategorized post category: 400 for /categories/1, the first term is 2 (issue 25)", async () => {
    const one = await svc.get('/categories/1');
    expect(one.status).toBe(400);
    expect(one.body.code).toBe('rest_invalid_param');
    expect((await svc.get('/tags/1')).status).toBe(400);
    const first = await svc.post('/categories', { name: 'First category' });
    expect(first.body.id).toBe(2);
    expect((await svc.get('/categories/1')).status).toBe(400);
  });

  it('creates a category with 201, a Location header and the term body in order', async () => {
    const res = await svc.post('/categories', { name: 'Foo', description: 'About foo' });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(`http://wordpress.test/wp-json/wp/v2/tribe_events_cat/${res.body.id}`);
    expect(Object.keys(res.body)).toEqual([
      'id',
      'count',
      'description',
      'name',
      'slug',
      'taxonomy',
      'parent',
      'meta',
      'url',
      'urls',
      '_links',
    ]);
    expect(res.body).toMatchObject({
      count: 0,
      name: 'Foo',
      slug: 'foo',
      taxonomy: 'tribe_events_cat',
      parent: 0,
      meta: [],
      urls: { self: `${svc.rest}/categories/${res.body.id}`, collection: `${svc.rest}/categories` },
    });
    const tag = await svc.post('/tags', { name: 'Foo tag' });
    expect(tag.body).not.toHaveProperty('parent');
    expect(tag.body.taxonomy).toBe('post_tag');
  });

  it('refuses duplicate names with term_exists and suffixes duplicate slugs', async () => {
    const dup = await svc.post('/categories', { name: 'Foo' });
    expect(dup.status).toBe(400);
    expect(dup.body.code).toBe('term_exists');
    expect(typeof dup.body.data.term_id).toBe('number');
    const s1 = await svc.post('/categories', { name: 'Foo bar one', slug: 'foo-bar' });
    const s2 = await svc.post('/categories', { name: 'Foo bar two', slug: 'foo-bar' });
    expect([s1.body.slug, s2.body.slug]).toEqual(['foo-bar', 'foo-bar-2']);
    const clash = await svc.post(`/categories/${s2.body.id}`, { slug: 'foo-bar' });
    expect(clash.status).toBe(400);
    expect(clash.body.code).toBe('duplicate_term_slug');
  });

  it('validates parents, descriptions and the taxonomy shape', async () => {
    const parent = (await svc.post('/categories', { name: 'Parent' })).body;
    const child = await svc.post('/categories', { name: 'Child', parent: parent.slug });
    expect(child.body.parent).toBe(parent.id);
    expect(child.body.urls.up).toBe(`${svc.rest}/categories/${parent.id}`);
    for (const p of ['', '2389', 'no-such-parent'])
      expect((await svc.post('/categories', { name: `P ${p}`, parent: p })).status).toBe(400);
    expect((await svc.post('/categories', { name: 'Empty desc', description: '' })).status).toBe(400);
    expect((await svc.post('/categories', { name: '' })).status).toBe(400);
    expect((await svc.post('/categories', {})).body.code).toBe('rest_missing_callback_param');
    const tagParent = await svc.post('/tags', { name: 'Tag with parent', parent: parent.id });
    expect(tagParent.body.code).toBe('rest_taxonomy_not_hierarchical');
  });

  it('hides empty terms by default and counts published events', async () => {
    const e = await createEvent(svc, { title: 'Counted', categories: ['Counted cat'] });
    await createEvent(svc, { title: 'Uncounted', categories: ['Counted cat'], status: 'draft' });
    const list = await svc.get('/categories');
    expect(list.body.categories.map((c: { name: string }) => c.name)).toEqual(['Counted cat']);
    expect(list.body.total).toBe(1);
    expect(list.body.categories[0].count).toBe(1);
    expect(Object.keys(list.body)).toEqual(['rest_url', 'total', 'total_pages', 'categories']);
    expect(list.headers.get('x-tec-total')).toBe('1');
    const other = await createEvent(svc, { title: 'Other', categories: ['Other cat'] });
    const byEvent = await svc.get('/categories', { query: { event: e.id, post: other.id } });
    expect(byEvent.body.categories[0].name).toBe('Counted cat');
    expect(byEvent.body.total).toBe(1);
    for (const bad of ['', '23', 'foo'])
      expect((await svc.get('/categories', { query: { post: bad } })).status).toBe(400);
  });

  it('searches, orders, filters and pages term lists', async () => {
    for (const name of ['A', 'b', 'C']) await svc.post('/tags', { name });
    const q = { hide_empty: 'false' };
    expect((await svc.get('/categories', { query: { ...q, search: 'foo' } })).body.total).toBe(3);
    expect((await svc.get('/categories', { query: { search: 'cat' } })).body.total).toBe(2);
    const byName = await svc.get('/tags', { query: { ...q, orderby: 'name', order: 'asc', include: '' } });
    expect(byName.status).toBe(200);
    const names = (await svc.get('/tags', { query: { ...q, orderby: 'name' } })).body.tags.map(
      (t: { name: string }) => t.name,
    );
    expect(names).toEqual(['A', 'b', 'C', 'Foo tag']);
    const desc = (await svc.get('/tags', { query: { ...q, orderby: 'id', order: 'desc' } })).body.tags.map(
      (t: { id: number }) => t.id,
    );
    expect(desc).toEqual([...desc].sort((a: number, b: number) => b - a));
    expect((await svc.get('/tags', { query: { ...q, order: '' } })).status).toBe(400);
    expect((await svc.get('/tags', { query: { ...q, orderby: '' } })).status).toBe(400);
    expect((await svc.get('/tags', { query: { ...q, include: '99999' } })).status).toBe(400);
    expect((await svc.get('/tags', { query: { ...q, slug: '' } })).status).toBe(400);
    expect((await svc.get('/tags', { query: { ...q, slug: 'unknown' } })).body.tags).toEqual([]);
    const page2 = await svc.get('/tags', { query: { ...q, per_page: 2, page: 2 } });
    expect(page2.body.previous_rest_url).toBe(`${svc.rest}/tags/`);
    expect((await svc.get('/tags', { query: { ...q, per_page: 2, page: 1 } })).body.next_rest_url).toBe(
      `${svc.rest}/tags/?page=2`,
    );
    const past = await svc.get('/tags', { query: { ...q, page: 50 } });
    expect(past.status).toBe(200);
    expect(past.body.tags).toEqual([]);
    const parent = (await svc.get('/categories', { query: { ...q, slug: 'parent' } })).body.categories[0];
    expect(
      (await svc.get('/categories', { query: { ...q, parent: parent.id } })).body.categories.map(
        (c: { name: string }) => c.name,
      ),
    ).toEqual(['Child']);
    expect((await svc.get('/categories', { query: { ...q, parent: 0 } })).status).toBe(400);
  });

  it('updates with POST, PUT or PATCH and deletes permanently, answering 400 the second time', async () => {
    const t = (await svc.post('/tags', { name: 'Short lived' })).body;
    expect(
      (await svc.request('PUT', `/tags/${t.id}`, { form: { description: 'Now described' }, as: 'administrator' })).body
        .description,
    ).toBe('Now described');
    expect((await svc.request('PATCH', `/tags/${t.id}`, { json: { name: 'Renamed' }, as: 'editor' })).body.name).toBe(
      'Renamed',
    );
    const del = await svc.request('DELETE', `/tags/${t.id}`, { as: 'administrator' });
    expect(del.status).toBe(200);
    expect(del.body).toMatchObject({ id: t.id, name: 'Renamed' });
    expect((await svc.request('DELETE', `/tags/${t.id}`, { as: 'administrator' })).status).toBe(400);
    expect((await svc.get(`/tags/${t.id}`)).status).toBe(400);
    expect((await svc.get('/categories/abc')).status).toBe(404);
  });
});

describe.each(STORES)('term bodies as WordPress builds them ($name)', (factory) => {
  let svc: Service;
  beforeAll(async () => {
    svc = await startService(factory);
  });
  afterAll(() => svc.close());

  it('nests category URLs under their ancestors, escapes names and suffixes a child slug with its parent', async () => {
    const arts = (await svc.post('/categories', { name: 'Arts & Culture' })).body;
    const theatre = (await svc.post('/categories', { name: 'Theatre', parent: arts.id })).body;
    const outdoors = (await svc.post('/categories', { name: 'Outdoors' })).body;
    const again = (await svc.post('/categories', { name: 'Theatre', parent: outdoors.id })).body;
    expect(arts.name).toBe('Arts &amp; Culture');
    expect(theatre.url).toBe('http://wordpress.test/events/category/arts-culture/theatre/');
    expect(again).toMatchObject({
      slug: 'theatre-outdoors',
      url: 'http://wordpress.test/events/category/outdoors/theatre-outdoors/',
    });
    const list = (await svc.get('/categories', { query: { hide_empty: '0', orderby: 'name' } })).body.categories;
    // Equal names: the newer term first, as the plugin's MySQL answered.
    expect(list.map((c: { id: number }) => c.id)).toEqual([arts.id, outdoors.id, again.id, theatre.id]);
    expect(list.every((c: Record<string, unknown>) => !('_links' in c))).toBe(true);
  });

  it('adds the core _links to single term answers, allow by what the caller may do', async () => {
    const tag = (await svc.post('/tags', { name: 'Linked' })).body;
    const wp = 'http://wordpress.test/wp-json/wp/v2';
    expect(tag._links).toEqual({
      self: [{ href: `${wp}/tags/${tag.id}`, targetHints: { allow: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] } }],
      collection: [{ href: `${wp}/tags` }],
      about: [{ href: `${wp}/taxonomies/post_tag` }],
      'wp:post_type': [
        { href: `${wp}/posts?tags=${tag.id}` },
        { href: `${wp}/tribe_events?tags=${tag.id}` },
        { href: `${wp}/tec_calendar_embed?tags=${tag.id}` },
      ],
      curies: [{ name: 'wp', href: 'https://api.w.org/{rel}', templated: true }],
    });
    expect((await svc.get(`/tags/${tag.id}`)).body._links.self[0].targetHints.allow).toEqual(['GET']);
    const deleted = await svc.request('DELETE', `/tags/${tag.id}`, { as: 'administrator' });
    expect(deleted.body).not.toHaveProperty('_links');
  });

  it('lets a rename take the name of another term, as wp_update_term does', async () => {
    const a = (await svc.post('/tags', { name: 'First' })).body;
    const b = (await svc.post('/tags', { name: 'Second' })).body;
    const res = await svc.request('PUT', `/tags/${b.id}`, { json: { name: 'First' }, as: 'administrator' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: b.id, name: 'First', slug: 'second' });
    expect(a.id).not.toBe(b.id);
  });
});

// Its own store: the parallel writes leave a non-empty category that the default-listing tests above must not see.
describe.each(STORES)('term counts under parallel writes ($name)', (factory) => {
  let svc: Service;
  beforeAll(async () => {
    svc = await startService(factory);
  });
  afterAll(() => svc.close());

  it('keeps counts exact under parallel creates (counted by increment) and updates (recounted)', async () => {
    const first = await createEvent(svc, { title: 'Busy 0', categories: ['Busy cat', 'Busy cat'] });
    const writes = await Promise.all([
      ...Array.from({ length: 12 }, (_, i) =>
        svc.post('/events', {
          title: `Busy ${i + 1}`,
          start_date: '2018-02-01 10:00',
          end_date: '2018-02-01 11:00',
          categories: ['Busy cat'],
          status: i % 4 === 0 ? 'draft' : 'publish',
        }),
      ),
      svc.post(`/events/${first.id}`, { status: 'draft' }),
    ]);
    expect(writes.map((w) => w.status).sort()).toEqual([...Array(12).fill(201), 200].sort());
    const cat = (await svc.get('/categories', { query: { search: 'Busy cat', hide_empty: false } })).body.categories[0];
    // 12 creates, of which 3 drafts, and the first event moved to draft.
    expect(cat.count).toBe(9);
  });
});
