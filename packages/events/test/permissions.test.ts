import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORES, startService, createEvent, PASSWORD, type Service, type RoleLogin } from './support/harness.ts';

describe.each(STORES)('authentication and the permission matrix ($name)', (factory) => {
  let svc: Service;
  beforeAll(async () => {
    svc = await startService(factory);
  });
  afterAll(() => svc.close());

  it('answers bad credentials with WordPress 401 codes, before routing', async () => {
    const unknown = await svc.get('/events', { as: { login: 'nobody', password: 'x' } });
    expect(unknown.status).toBe(401);
    expect(unknown.body.code).toBe('invalid_username');
    const wrong = await svc.get('/nope', { as: { login: 'editor', password: 'wrong-password' } });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({
      code: 'incorrect_password',
      message: 'The provided password is an invalid application password.',
      data: { status: 401 },
    });
    expect(
      (await svc.get('/events', { as: { login: 'editor', password: PASSWORD.replace(/(.{4})/g, '$1 ') } })).status,
    ).toBe(200);
  });

  it('lets anonymous callers read but not write: 401 logged out, 403 for subscribers', async () => {
    const form = { title: 'x', start_date: 'tomorrow', end_date: 'tomorrow' };
    const anon = await svc.request('POST', '/events', { form });
    expect(anon.status).toBe(401);
    expect(anon.body).toEqual({
      code: 'rest_forbidden',
      message: 'Sorry, you are not allowed to do that.',
      data: { status: 401 },
    });
    expect((await svc.request('POST', '/events', { form, as: 'subscriber' })).status).toBe(403);
    expect((await svc.request('POST', '/venues', { form: { venue: 'v' }, as: 'subscriber' })).status).toBe(403);
    expect((await svc.request('POST', '/organizers', { form: { organizer: 'o' } })).status).toBe(401);
  });

  it('scales the requested status by the publish capability', async () => {
    const table: Record<string, Partial<Record<RoleLogin, string>>> = {
      publish: { administrator: 'publish', editor: 'publish', author: 'publish', contributor: 'pending' },
      future: { administrator: 'future', author: 'future', contributor: 'pending' },
      draft: { editor: 'draft', author: 'draft', contributor: 'draft' },
    };
    for (const [requested, byRole] of Object.entries(table)) {
      for (const [role, expected] of Object.entries(byRole)) {
        const e = await createEvent(svc, { title: `${requested} by ${role}`, status: requested }, role as RoleLogin);
        expect(e.status, `${requested} by ${role}`).toBe(expected);
      }
    }
    expect((await createEvent(svc, { title: 'no status' }, 'contributor')).status).toBe('draft');
    expect((await createEvent(svc, { title: 'no status' }, 'author')).status).toBe('publish');
    const v = await svc.request('POST', '/venues', {
      form: { venue: 'Contrib venue', status: 'publish' },
      as: 'contributor',
    });
    expect(v.body.status).toBe('pending');
    expect(
      (
        await svc.request('POST', '/events', {
          form: { title: 'x', start_date: 'tomorrow', end_date: 'tomorrow', status: 'kinda_thinking_about_it' },
          as: 'administrator',
        })
      ).status,
    ).toBe(400);
  });

  it('checks per-post edit and delete rights', async () => {
    const adminEvent = await createEvent(svc, { title: 'Admin event' });
    const ownDraft = await createEvent(svc, { title: 'Own draft' }, 'contributor');
    const ownPublished = await createEvent(svc, { title: 'Own published' }, 'author');
    const edit = (id: number, as: RoleLogin) => svc.request('PUT', `/events/${id}`, { form: { title: 'changed' }, as });
    const del = (id: number, as: RoleLogin) => svc.request('DELETE', `/events/${id}`, { as });
    expect((await edit(adminEvent.id, 'contributor')).status).toBe(403);
    expect((await del(adminEvent.id, 'contributor')).status).toBe(403);
    expect((await edit(adminEvent.id, 'author')).status).toBe(403);
    expect((await edit(ownDraft.id, 'contributor')).status).toBe(200);
    expect((await edit(ownPublished.id, 'author')).status).toBe(200);
    expect((await edit(adminEvent.id, 'editor')).status).toBe(200);
    expect((await svc.request('PUT', `/events/${adminEvent.id}`, { form: { title: 'x' } })).status).toBe(401);
    // A contributor's event, once published by an editor, is out of the contributor's reach.
    await svc.request('PUT', `/events/${ownDraft.id}`, { form: { status: 'publish' }, as: 'editor' });
    expect((await edit(ownDraft.id, 'contributor')).status).toBe(403);
    expect((await del(ownDraft.id, 'contributor')).status).toBe(403);
    const another = await createEvent(svc, { title: 'Deletable draft' }, 'contributor');
    expect((await del(another.id, 'contributor')).status).toBe(200);
    expect((await del(ownPublished.id, 'editor')).status).toBe(200);
  });

  it('keeps the status of an update unless one is sent', async () => {
    const draft = await createEvent(svc, { title: 'Stay draft', status: 'draft' });
    expect((await svc.post(`/events/${draft.id}`, { title: 'Still draft' })).body.status).toBe('draft');
  });

  it('checks per-post rights on venues and organizers', async () => {
    const v = (await svc.post('/venues', { venue: 'Admin venue' })).body;
    const o = (await svc.post('/organizers', { organizer: 'Admin organizer' })).body;
    expect((await svc.request('PUT', `/venues/${v.id}`, { form: { city: 'x' }, as: 'contributor' })).status).toBe(403);
    expect((await svc.request('DELETE', `/organizers/${o.id}`, { as: 'contributor' })).status).toBe(403);
    expect((await svc.request('PUT', `/venues/${v.id}`, { form: { city: 'x' }, as: 'editor' })).status).toBe(200);
    expect((await svc.request('PUT', `/organizers/${o.id}`, { form: { phone: '1' } })).status).toBe(401);
  });

  it('lets admins and authors manage categories, only admins and editors manage tags', async () => {
    expect((await svc.request('POST', '/categories', { form: { name: 'By author' }, as: 'author' })).status).toBe(201);
    expect(
      (await svc.request('POST', '/categories', { form: { name: 'By contributor' }, as: 'contributor' })).status,
    ).toBe(403);
    expect((await svc.request('POST', '/tags', { form: { name: 'By author' }, as: 'author' })).status).toBe(403);
    expect((await svc.request('POST', '/tags', { form: { name: 'By editor' }, as: 'editor' })).status).toBe(201);
    expect((await svc.request('POST', '/tags', { form: { name: 'anon' } })).status).toBe(401);
  });

  it('validates before checking permissions: deleting an unknown category as a subscriber is a 400', async () => {
    const res = await svc.request('DELETE', '/categories/23', { as: 'subscriber' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('rest_invalid_param');
  });

  it('forbids creating events as another user without edit_others', async () => {
    const res = await svc.request('POST', '/events', {
      form: { title: 'x', start_date: 'tomorrow', end_date: 'tomorrow', author: svc.userIds.administrator },
      as: 'author',
    });
    expect(res.status).toBe(403);
    const ok = await createEvent(svc, { title: 'For the author', author: svc.userIds.author });
    expect(ok.author).toBe(String(svc.userIds.author));
    expect(
      (
        await svc.request('POST', '/events', {
          form: { title: 'x', start_date: 'tomorrow', end_date: 'tomorrow', author: 23 },
          as: 'administrator',
        })
      ).status,
    ).toBe(400);
  });

  it('shows authors and contributors only their own unpublished events in lists', async () => {
    const mine = await createEvent(
      svc,
      { title: 'Mine draft', status: 'draft', start_date: '2018-03-01 10:00', end_date: '2018-03-01 11:00' },
      'author',
    );
    await createEvent(svc, {
      title: 'Their draft',
      status: 'draft',
      start_date: '2018-03-01 10:00',
      end_date: '2018-03-01 11:00',
    });
    const list = await svc.get('/events', {
      query: { start_date: '2018-03-01', end_date: '2018-03-01' },
      as: 'author',
    });
    expect(list.body.events.map((e: { id: number }) => e.id)).toEqual([mine.id]);
    const all = await svc.get('/events', { query: { start_date: '2018-03-01', end_date: '2018-03-01' }, as: 'editor' });
    expect(all.body.total).toBe(2);
  });
});
