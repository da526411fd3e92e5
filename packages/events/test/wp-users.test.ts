import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../src/db/index.ts';
import { STORES, createEvent, startService, type Service } from './support/harness.ts';

// Issue 30 item 3 needs the source's authors: `GET /wp/v2/users` and `/wp/v2/users/<id>` as WordPress core's
// WP_REST_Users_Controller answers them. Anonymous callers (and any caller without `list_users`) see only users with
// published posts; `context=edit`, role filters and e-mail order need `list_users` (administrators).

const USERS = '/wp-json/wp/v2/users';
const REST = 'http://wordpress.test/wp-json/';

describe.each(STORES)('/wp/v2/users ($name)', (factory) => {
  let svc: Service;
  beforeAll(async () => {
    svc = await startService(factory);
    // The author publishes; the contributor's event waits for review: only the author has published posts.
    await createEvent(svc, { title: 'Gala' }, 'author');
    await createEvent(svc, { title: 'Draft talk' }, 'contributor');
  });
  afterAll(() => svc.close());

  const names = (body: Array<{ name: string }>) => body.map((u) => u.name);

  it('shows anonymous callers only the users with published posts, in view context with their links', async () => {
    const res = await svc.get(USERS);
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('x-wp-total')).toBe('1');
    expect(res.headers.get('x-wp-totalpages')).toBe('1');
    // No other page: only the API discovery link every answer carries.
    expect(res.headers.get('link')).toBe(`<${REST}>; rel="https://api.w.org/"`);
    const id = svc.userIds.author;
    expect(res.body).toEqual([
      {
        id,
        name: 'author',
        url: '',
        description: '',
        link: 'http://wordpress.test/author/author/',
        slug: 'author',
        avatar_urls: {
          24: 'https://secure.gravatar.com/avatar/?s=24&d=mm&r=g',
          48: 'https://secure.gravatar.com/avatar/?s=48&d=mm&r=g',
          96: 'https://secure.gravatar.com/avatar/?s=96&d=mm&r=g',
        },
        meta: [],
        _links: {
          self: [{ href: `${REST}wp/v2/users/${id}`, targetHints: { allow: ['GET'] } }],
          collection: [{ href: `${REST}wp/v2/users` }],
        },
      },
    ]);
    // A single user: the same body, and only for one who has published.
    const one = await svc.get(`${USERS}/${id}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(res.body[0]);
    const hidden = await svc.get(`${USERS}/${svc.userIds.contributor}`);
    expect(hidden.status).toBe(401);
    expect(hidden.body).toEqual({
      code: 'rest_user_cannot_view',
      message: 'Sorry, you are not allowed to list users.',
      data: { status: 401 },
    });
  });

  it('lists every user to an administrator, by name, with the edit context of users/me', async () => {
    const res = await svc.get(USERS, { as: 'administrator', query: { context: 'edit' } });
    expect(res.status, res.text).toBe(200);
    expect(names(res.body)).toEqual(['administrator', 'author', 'contributor', 'editor', 'subscriber']);
    const me = await svc.get(`${USERS}/me`, { as: 'administrator', query: { context: 'edit' } });
    expect(res.body[0]).toEqual(me.body);
    expect(res.body[3]).toMatchObject({ username: 'editor', roles: ['editor'], email: '' });
    // An administrator may edit and delete anyone.
    expect(res.body[3]._links.self[0].targetHints.allow).toEqual(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
    const desc = await svc.get(USERS, { as: 'administrator', query: { order: 'desc', orderby: 'id' } });
    expect(desc.body.map((u: { id: number }) => u.id)).toEqual([...Object.values(svc.userIds)].sort((a, b) => b - a));
  });

  it('pages with X-WP-Total, X-WP-TotalPages and Link headers as core builds them', async () => {
    const res = await svc.get(`${USERS}?per_page=2&page=2`, { as: 'administrator' });
    expect(names(res.body)).toEqual(['contributor', 'editor']);
    expect(res.headers.get('x-wp-total')).toBe('5');
    expect(res.headers.get('x-wp-totalpages')).toBe('3');
    expect(res.headers.get('link')).toBe(
      `<${REST}wp/v2/users?per_page=2&page=1>; rel="prev", <${REST}wp/v2/users?per_page=2&page=3>; rel="next"`,
    );
    const last = await svc.get(`${USERS}?per_page=2&page=3&search=`, { as: 'administrator' });
    expect(names(last.body)).toEqual(['subscriber']);
    expect(last.headers.get('link')).toBe(`<${REST}wp/v2/users?per_page=2&page=2&search=>; rel="prev"`);
    // Past the end: an empty page, `prev` capped at the last page.
    const past = await svc.get(`${USERS}?page=9&per_page=2`, { as: 'administrator' });
    expect(past.body).toEqual([]);
    expect(past.headers.get('link')).toBe(`<${REST}wp/v2/users?page=3&per_page=2>; rel="prev"`);
  });

  it('refuses bad paging arguments with core messages', async () => {
    const big = await svc.get(USERS, { query: { per_page: 101 } });
    expect(big.status).toBe(400);
    const message = 'per_page must be between 1 (inclusive) and 100 (inclusive)';
    expect(big.body).toMatchObject({
      code: 'rest_invalid_param',
      data: {
        status: 400,
        params: { per_page: message },
        details: { per_page: { code: 'rest_out_of_bounds', message, data: null } },
      },
    });
    const zero = await svc.get(USERS, { query: { page: 0 } });
    expect(zero.body.data.params).toEqual({ page: 'page must be greater than or equal to 1' });
    const order = await svc.get(USERS, { query: { orderby: 'login' } });
    expect(order.body.data.params.orderby).toBe(
      'orderby is not one of id, include, name, registered_date, slug, include_slugs, email, and url.',
    );
  });

  it('needs list_users for the edit context, role filters and e-mail order: 401 anonymously, 403 logged in', async () => {
    const cases = [
      [{ context: 'edit' }, 'rest_forbidden_context'],
      [{ roles: 'author' }, 'rest_user_cannot_view'],
      [{ capabilities: 'edit_posts' }, 'rest_user_cannot_view'],
      [{ orderby: 'email' }, 'rest_forbidden_orderby'],
    ] as const;
    for (const [query, code] of cases) {
      expect((await svc.get(USERS, { query })).body).toMatchObject({ code, data: { status: 401 } });
      expect((await svc.get(USERS, { query, as: 'editor' })).body).toMatchObject({ code, data: { status: 403 } });
    }
    const editors = await svc.get(USERS, { as: 'administrator', query: { roles: 'editor,subscriber' } });
    expect(names(editors.body)).toEqual(['editor', 'subscriber']);
    const listers = await svc.get(USERS, { as: 'administrator', query: { capabilities: 'list_users' } });
    expect(names(listers.body)).toEqual(['administrator']);
  });

  it('filters by search, slug and include; who=authors needs a caller who may edit posts', async () => {
    expect(names((await svc.get(USERS, { query: { search: 'UTH' } })).body)).toEqual(['author']);
    expect(names((await svc.get(USERS, { query: { search: 'edit' } })).body)).toEqual([]);
    expect(names((await svc.get(USERS, { as: 'editor', query: { slug: 'author,editor' } })).body)).toEqual(['author']);
    const { contributor, editor } = svc.userIds;
    const included = await svc.get(USERS, {
      as: 'administrator',
      query: { include: `${contributor},${editor}`, orderby: 'include' },
    });
    expect(names(included.body)).toEqual(['contributor', 'editor']);
    const authors = await svc.get(USERS, { as: 'contributor', query: { who: 'authors' } });
    expect(names(authors.body)).toEqual(['administrator', 'author', 'contributor', 'editor']);
    expect((await svc.get(USERS, { as: 'subscriber', query: { who: 'authors' } })).body.code).toBe(
      'rest_forbidden_who',
    );
    // `_fields` without `_links` leaves the links out, as core does.
    expect((await svc.get(USERS, { query: { _fields: 'id,name' } })).body).toEqual([
      { id: svc.userIds.author, name: 'author' },
    ]);
  });

  it('answers one user: 404 for an unknown id, the edit context to its owner and administrators', async () => {
    for (const id of ['999', '0', '99999999999999999999']) {
      const res = await svc.get(`${USERS}/${id}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: 'rest_user_invalid_id', message: 'Invalid user ID.', data: { status: 404 } });
    }
    const own = await svc.get(`${USERS}/${svc.userIds.editor}`, { as: 'editor', query: { context: 'edit' } });
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ username: 'editor', roles: ['editor'] });
    expect(own.body._links.self[0].targetHints.allow).toEqual(['GET', 'POST', 'PUT', 'PATCH']);
    const other = await svc.get(`${USERS}/${svc.userIds.author}`, { as: 'editor', query: { context: 'edit' } });
    expect(other.status).toBe(403);
    expect(other.body.code).toBe('rest_user_cannot_view');
    const admin = await svc.get(`${USERS}/${svc.userIds.subscriber}`, {
      as: 'administrator',
      query: { context: 'edit' },
    });
    expect(admin.body).toMatchObject({ username: 'subscriber', roles: ['subscriber'] });
  });
});

describe.each(STORES)('cached anonymous /wp/v2/users answers ($name)', (factory) => {
  let svc: Service;
  beforeAll(async () => {
    // A long cache life: only the change signal (users changes move the calendar topic too) can drop the answer here.
    svc = await startService(factory, { env: { EVENTS_CACHE_TTL_MS: '600000' } });
    await createEvent(svc, { title: 'Gala' }, 'author');
  });
  afterAll(() => svc.close());

  it('are dropped when another process changes a user, as for a calendar change', async () => {
    expect((await svc.get(USERS)).body.map((u: { name: string }) => u.name)).toEqual(['author']);
    const other = await openStore(svc.dbUrl);
    try {
      await other.db.updateTable('users').set({ display_name: 'Ann Author' }).where('login', '=', 'author').execute();
    } finally {
      await other.close();
    }
    // PostgreSQL's notification arrives asynchronously: wait for it, well within the cache's life.
    let name = '';
    for (let i = 0; i < 100 && name !== 'Ann Author'; i++) {
      name = (await svc.get(USERS)).body[0].name;
      if (name !== 'Ann Author') await new Promise((r) => setTimeout(r, 50));
    }
    expect(name).toBe('Ann Author');
  });
});
