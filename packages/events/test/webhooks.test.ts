import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { STORES, createEvent, startService, startSibling, type Service, type StoreFactory } from './support/harness.ts';
import { startReceiver, waitFor, type Receiver } from './support/webhook-receiver.ts';

const HOOKS = '/wp-json/events-service/v1/webhooks';
const ENV = { EVENTS_MEDIA_ALLOW_PRIVATE_HOSTS: '1', EVENTS_WEBHOOK_POLL_MS: '20', EVENTS_WEBHOOK_RETRY_BASE_MS: '10' };

/** A row of `GET /webhooks/{id}/deliveries`. */
interface Delivery {
  id: number;
  webhook_id: string;
  event_type: string;
  entity: { kind: string; id: number };
  status: string;
  attempts: number;
  last_error: string;
}

/** The service's clock runs with real time (receivers check `webhook-timestamp` against it), shifted by `offset`. */
function realClock(svc: Service) {
  const shift = { offset: 0 };
  Object.defineProperty(svc.clock, 'now', { get: () => Date.now() + shift.offset });
  return shift;
}

describe.each(STORES)('webhooks ($name)', (factory: StoreFactory) => {
  let svc: Service;
  let rx: Receiver;
  let shift: { offset: number };
  let sub: { id: number; secret: string };

  const subscribe = async (types: string[]) => {
    const r = await svc.request('POST', HOOKS, { json: { url: rx.url, event_types: types }, as: 'administrator' });
    expect(r.status).toBe(201);
    rx.useSecret(r.body.secret);
    return r.body as { id: number; secret: string };
  };
  const deliveries = async (id = sub.id) =>
    (await svc.request('GET', `${HOOKS}/${id}/deliveries`, { as: 'administrator' })).body as Delivery[];

  beforeAll(async () => {
    svc = await startService(factory, { env: ENV });
    shift = realClock(svc);
    rx = await startReceiver();
  });
  afterAll(async () => {
    await svc.close();
    await rx.close();
  });
  beforeEach(async () => {
    shift.offset = 0;
    rx.answerWith(() => 200);
    rx.delayAnswers(0);
    // The last test's messages are settled first (a late one would land in this test's list).
    const unsettled = () =>
      svc.store.db.selectFrom('webhook_outbox').select('id').where('status', '=', 'pending').execute();
    await waitFor(async () => (await unsettled()).length === 0).catch(() => undefined);
    for (const s of (await svc.request('GET', HOOKS, { as: 'administrator' })).body)
      await svc.request('DELETE', `${HOOKS}/${s.id}`, { as: 'administrator' });
    rx.received.length = 0;
    sub = await subscribe(['event.created', 'event.updated', 'event.deleted', 'event.published', 'tag.created']);
  });

  it('answers 401 logged out, 403 to other roles and 400 on a bad URL or event type', async () => {
    const body = { url: rx.url, event_types: ['event.created'] };
    expect((await svc.request('POST', HOOKS, { json: body })).status).toBe(401);
    expect((await svc.request('GET', HOOKS, { as: 'editor' })).status).toBe(403);
    expect((await svc.request('POST', HOOKS, { json: body, as: 'editor' })).status).toBe(403);
    const badUrl = await svc.request('POST', HOOKS, { json: { ...body, url: 'ftp://x.test/' }, as: 'administrator' });
    expect(badUrl.status).toBe(400);
    expect(badUrl.body.code).toBe('rest_invalid_param');
    const badType = await svc.request('POST', HOOKS, {
      json: { ...body, event_types: ['event.exploded'] },
      as: 'administrator',
    });
    expect(badType.status).toBe(400);
    expect(JSON.stringify(badType.body)).toContain('event_types');
    const none = await svc.request('POST', HOOKS, { json: { ...body, event_types: [] }, as: 'administrator' });
    expect(none.status).toBe(400);
    expect((await svc.request('DELETE', `${HOOKS}/999999`, { as: 'administrator' })).status).toBe(404);
    expect((await svc.request('POST', `${HOOKS}/deliveries/999999/redeliver`, { as: 'administrator' })).status).toBe(
      404,
    );
    const list = await svc.request('GET', HOOKS, { as: 'administrator' });
    expect(list.body).toHaveLength(1);
    expect(list.body[0]).not.toHaveProperty('secret');
  });

  it('delivers created, published, updated and deleted with the GET body, signed', async () => {
    const created = await createEvent(svc, { title: 'Hooked', status: 'publish', tags: 'loud' });
    await waitFor(() => rx.received.length >= 3);
    const up = await svc.request('POST', `/events/${created.id}`, {
      form: { title: 'Hooked again' },
      as: 'administrator',
    });
    expect(up.status).toBe(200);
    await waitFor(() => rx.received.length >= 4);
    expect((await svc.request('DELETE', `/events/${created.id}`, { as: 'administrator' })).status).toBe(200);
    await waitFor(() => rx.received.length >= 5);
    expect(rx.rejected).toEqual([]);
    const types = rx.received.map((m) => m.body.type);
    expect(types.slice(0, 3).sort()).toEqual(['event.created', 'event.published', 'tag.created']);
    expect(types.slice(3)).toEqual(['event.updated', 'event.deleted']);
    const updated = rx.received[3]!.body.data;
    expect(updated.id).toBe(created.id);
    expect(updated.title).toBe('Hooked again');
    expect(updated.url).toBe(created.url);
    expect(rx.received[4]!.body.data).toEqual({ id: created.id, type: 'event' });
    expect(new Set(rx.received.map((m) => m.id)).size).toBe(5);
    // The receiver counts a message before it answers; the service records the answer just after.
    await waitFor(async () => (await deliveries()).every((d) => d.status === 'delivered'));
    expect(await deliveries()).toHaveLength(5);
  });

  it('sends the body the REST GET returns', async () => {
    const created = await createEvent(svc, { title: 'Same body', status: 'publish', venue: { venue: 'Hall' } });
    await waitFor(() => rx.received.some((m) => m.body.type === 'event.created'));
    const get = await svc.request('GET', `/events/${created.id}`, { as: 'administrator' });
    expect(rx.received.find((m) => m.body.type === 'event.created')!.body.data).toEqual(get.body);
  });

  it('retries a 500 with the same webhook-id until the receiver takes it', async () => {
    rx.answerWith((attempt) => (attempt < 3 ? 500 : 200));
    const e = await createEvent(svc, { title: 'Flaky receiver' });
    await waitFor(() => rx.received.length >= 2);
    expect(rx.received.map((m) => m.body.type)).toEqual(['event.created', 'event.published']);
    expect(rx.received[0]!.body.data.id).toBe(e.id);
    await waitFor(async () => (await deliveries()).every((d) => d.status === 'delivered'));
    for (const d of await deliveries()) {
      expect(d.status).toBe('delivered');
      expect(d.attempts).toBe(3);
      expect(rx.attemptsOf.get(d.webhook_id)).toBe(3);
    }
  });

  it('fails a message after 24 hours, pauses the subscription, and redelivers it by hand with its webhook-id', async () => {
    // One message only: a second one of the event would be tried (and put off a day) once the first fails.
    await svc.request('DELETE', `${HOOKS}/${sub.id}`, { as: 'administrator' });
    sub = await subscribe(['event.created']);
    rx.answerWith(() => 503);
    await createEvent(svc, { title: 'Down all day' });
    await waitFor(async () => ((await deliveries()).at(-1)?.attempts ?? 0) >= 1);
    shift.offset = 25 * 3_600_000;
    await waitFor(async () => (await deliveries()).at(-1)?.status === 'failed');
    await waitFor(async () => (await svc.request('GET', HOOKS, { as: 'administrator' })).body[0].paused === true);
    const failed = (await deliveries()).at(-1);
    // 503, or 401 once the shifted clock puts `webhook-timestamp` outside the verifier's tolerance.
    expect(failed!.last_error).toMatch(/^the receiver answered (503|401)$/);
    // Back to normal: resume, redeliver; the receiver gets the message it missed, with the id it had.
    shift.offset = 0;
    rx.answerWith(() => 200);
    expect((await svc.request('POST', `${HOOKS}/${sub.id}/resume`, { as: 'administrator' })).status).toBe(200);
    const r = await svc.request('POST', `${HOOKS}/deliveries/${failed!.id}/redeliver`, { as: 'administrator' });
    expect(r.status).toBe(202);
    await waitFor(() => rx.received.length >= 1);
    expect(rx.received[0]!.id).toBe(failed!.webhook_id);
  });

  it('prunes delivered and failed messages 14 days after their last attempt, never pending or in-flight ones', async () => {
    const DAY = 24 * 3_600_000;
    await svc.request('DELETE', `${HOOKS}/${sub.id}`, { as: 'administrator' });
    sub = await subscribe(['event.created']);
    // A failed message (a day of 503s) and a delivered one, both settled now.
    rx.answerWith(() => 503);
    await createEvent(svc, { title: 'Refused' });
    await waitFor(async () => ((await deliveries())[0]?.attempts ?? 0) >= 1);
    shift.offset = 25 * 3_600_000;
    await waitFor(async () => (await deliveries())[0]?.status === 'failed');
    shift.offset = 0;
    rx.answerWith(() => 200);
    await svc.request('POST', `${HOOKS}/${sub.id}/resume`, { as: 'administrator' });
    await createEvent(svc, { title: 'Delivered' });
    await waitFor(async () => (await deliveries())[0]?.status === 'delivered');
    const settled = await deliveries();
    expect(settled.map((d) => d.status)).toEqual(['delivered', 'failed']);
    // One message in flight (the receiver holds its answer) and one waiting behind the busy round.
    rx.delayAnswers(4000);
    const inFlight = await createEvent(svc, { title: 'In flight' });
    await waitFor(() => rx.inFlight === 1);
    const waiting = await createEvent(svc, { title: 'Waiting' });
    shift.offset = 16 * DAY;
    await waitFor(async () => (await deliveries()).length === 2);
    const kept = await deliveries();
    shift.offset = 0;
    expect(kept.map((d) => [d.entity.id, d.status])).toEqual([
      [waiting.id, 'pending'],
      [inFlight.id, 'pending'],
    ]);
    for (const gone of settled)
      expect(
        (await svc.request('POST', `${HOOKS}/deliveries/${gone.id}/redeliver`, { as: 'administrator' })).status,
      ).toBe(404);
    // Both are still delivered, and stay in the log (their last attempt is recent).
    await waitFor(async () => (await deliveries()).every((d) => d.status === 'delivered'));
    expect((await deliveries()).map((d) => d.entity.id)).toEqual([waiting.id, inFlight.id]);
    expect(rx.received.map((m) => m.body.data.title)).toEqual(['Delivered', 'In flight', 'Waiting']);
  });

  it('holds messages while paused and sends them on resume; writes nothing for a paused subscription', async () => {
    await svc.request('POST', `${HOOKS}/${sub.id}/pause`, { as: 'administrator' });
    await createEvent(svc, { title: 'While paused' });
    await new Promise((r) => setTimeout(r, 200));
    expect(rx.received).toEqual([]);
    expect(await deliveries()).toEqual([]);
    await svc.request('POST', `${HOOKS}/${sub.id}/resume`, { as: 'administrator' });
    await createEvent(svc, { title: 'After resume' });
    await waitFor(() => rx.received.length >= 1);
    expect(rx.received[0]!.body.data.title).toBe('After resume');
  });

  it('delivers one entity in order: a later message waits for the earlier one', async () => {
    const e = await createEvent(svc, { title: 'v0' });
    for (let i = 1; i <= 10; i++)
      await svc.request('POST', `/events/${e.id}`, { form: { title: `v${i}` }, as: 'administrator' });
    // created, published (an administrator's event is published) and ten updates.
    await waitFor(() => rx.received.length >= 12);
    const ids = (await deliveries()).map((d) => d.id).reverse();
    const sentOrder = rx.received.map((m) => m.id);
    const logOrder = (await deliveries()).reverse().map((d) => d.webhook_id);
    expect(sentOrder).toEqual(logOrder);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(rx.received.slice(0, 2).map((m) => m.body.type)).toEqual(['event.created', 'event.published']);
    // Each body is the event as its GET showed it at the message's first attempt: never older than the change.
    const versions = rx.received.slice(2).map((m) => Number(String(m.body.data.title).slice(1)));
    versions.forEach((v, i) => expect(v).toBeGreaterThanOrEqual(i + 1));
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    expect(versions.at(-1)).toBe(10);
  });

  it('sends a test message on request, reports the answer and logs it like any delivery', async () => {
    const r = await svc.request('POST', `${HOOKS}/${sub.id}/test`, { as: 'administrator' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ delivered: true, status: 200, error: '' });
    await waitFor(() => rx.received.length >= 1);
    expect(rx.received[0]!.body.type).toBe('webhook.test');
    expect(rx.received[0]!.id).toBe(r.body.webhook_id);
    expect((await deliveries())[0]).toMatchObject({
      id: r.body.id,
      webhook_id: r.body.webhook_id,
      event_type: 'webhook.test',
      entity: { kind: 'subscription', id: sub.id },
      status: 'delivered',
      attempts: 1,
    });
    // A refused test is logged as failed at once (not retried) and leaves the subscription's failing state alone.
    rx.answerWith(() => 503);
    const refused = await svc.request('POST', `${HOOKS}/${sub.id}/test`, { as: 'administrator' });
    expect(refused.body).toMatchObject({ delivered: false, status: 503, error: 'the receiver answered 503' });
    await new Promise((res) => setTimeout(res, 200));
    expect((await deliveries())[0]).toMatchObject({
      id: refused.body.id,
      status: 'failed',
      attempts: 1,
      last_error: 'the receiver answered 503',
    });
    expect(rx.attemptsOf.get(refused.body.webhook_id)).toBe(1);
    expect((await svc.request('GET', HOOKS, { as: 'administrator' })).body[0].failing_since).toBeNull();
    // Redelivered by hand: the same webhook-id and body.
    rx.answerWith(() => 200);
    const again = await svc.request('POST', `${HOOKS}/deliveries/${refused.body.id}/redeliver`, {
      as: 'administrator',
    });
    expect(again.status).toBe(202);
    await waitFor(() => rx.received.length >= 2);
    expect(rx.received[1]!.id).toBe(refused.body.webhook_id);
    expect(rx.received[1]!.body.data).toEqual({ subscription_id: sub.id });
    await waitFor(async () => (await deliveries())[0]?.status === 'delivered');
    expect((await deliveries())[0]).toMatchObject({ id: refused.body.id, attempts: 2 });
  });

  it('fails a redelivered message again once it has failed for 24 hours since the redelivery', async () => {
    rx.answerWith(() => 503);
    const refused = await svc.request('POST', `${HOOKS}/${sub.id}/test`, { as: 'administrator' });
    await svc.request('POST', `${HOOKS}/deliveries/${refused.body.id}/redeliver`, { as: 'administrator' });
    await waitFor(async () => ((await deliveries())[0]?.attempts ?? 0) >= 3);
    expect((await deliveries())[0]!.status).toBe('pending');
    shift.offset = 25 * 3_600_000;
    await waitFor(async () => (await deliveries())[0]?.status === 'failed');
    shift.offset = 0;
    await svc.request('POST', `${HOOKS}/${sub.id}/resume`, { as: 'administrator' });
  });

  it('announces what a CSV import writes, and nothing of a refused (rolled back) import', async () => {
    const route = '/wp-json/events-service/v1/import/csv';
    const csv = 'Event Name,Event Start Date\nFrom CSV one,2026-03-01 10:00\nFrom CSV two,2026-03-02 10:00\n';
    const ok = await svc.request('POST', route, { json: { type: 'events', csv }, as: 'administrator' });
    expect(ok.status).toBe(201);
    const refused = await svc.request('POST', route, {
      json: { type: 'events', csv: 'Event Name,Event Start Date\nGood row,2026-03-03 10:00\nBad row,not a date\n' },
      as: 'administrator',
    });
    expect(refused.status).toBe(400);
    await waitFor(() => rx.received.filter((m) => m.body.type === 'event.created').length >= 2);
    await new Promise((r) => setTimeout(r, 150));
    const created = rx.received.filter((m) => m.body.type === 'event.created').map((m) => m.body.data.title);
    expect(created.sort()).toEqual(['From CSV one', 'From CSV two']);
  });

  it('announces venues, organizers and categories, and not a term recount', async () => {
    await svc.request('DELETE', `${HOOKS}/${sub.id}`, { as: 'administrator' });
    sub = await subscribe(['venue.created', 'organizer.updated', 'category.created', 'category.updated']);
    const venue = await svc.request('POST', '/venues', { form: { venue: 'Barn' }, as: 'administrator' });
    const org = await svc.request('POST', '/organizers', { form: { organizer: 'Ann' }, as: 'administrator' });
    await svc.request('POST', `/organizers/${org.body.id}`, { form: { organizer: 'Ann B' }, as: 'administrator' });
    const cat = await svc.request('POST', '/categories', { form: { name: 'Jazz' }, as: 'administrator' });
    // Tagging an event recounts the category: no category.updated for that.
    await createEvent(svc, { title: 'Gig', categories: String(cat.body.id) });
    await waitFor(() => rx.received.length >= 3);
    await new Promise((r) => setTimeout(r, 150));
    // Different entities go out side by side: their order is not kept (only one entity's is).
    const byType = new Map(rx.received.map((m) => [m.body.type, m.body.data]));
    expect([...byType.keys()].sort()).toEqual(['category.created', 'organizer.updated', 'venue.created']);
    expect(rx.received).toHaveLength(3);
    expect(byType.get('venue.created')!.id).toBe(venue.body.id);
    expect(byType.get('organizer.updated')!.organizer).toBe('Ann B');
    // The GET body; its count is the one at the first attempt (the event may have been written before it).
    const get = (await svc.get(`/categories/${cat.body.id}`, { as: 'administrator' })).body;
    const category = byType.get('category.created')!;
    expect(category).toEqual({ ...get, count: category.count });
  });
});

describe('webhook addresses', () => {
  it('refuses loopback, private and odd-port receivers unless private hosts are allowed', async () => {
    const svc = await startService(STORES[0]!);
    try {
      for (const url of [
        'http://127.0.0.1/hook',
        'http://10.0.0.8/hook',
        'http://[::1]/hook',
        'http://93.184.215.14:22/',
      ]) {
        const r = await svc.request('POST', HOOKS, {
          json: { url, event_types: ['event.created'] },
          as: 'administrator',
        });
        expect(r.status, url).toBe(400);
        expect(r.body.code).toBe('rest_invalid_param');
      }
      const ok = await svc.request('POST', HOOKS, {
        json: { url: 'https://93.184.215.14/hook', event_types: ['event.created'] },
        as: 'administrator',
      });
      expect(ok.status).toBe(201);
    } finally {
      await svc.close();
    }
  });
});

describe('two instances on one PostgreSQL', () => {
  it('deliver each message once', { timeout: 60_000 }, async () => {
    const svc = await startService(
      STORES.find((s) => s.name === 'postgres')!,
      { env: ENV },
    );
    realClock(svc);
    const sibling = await startSibling(svc, { env: ENV });
    const rx = await startReceiver();
    try {
      const r = await svc.request('POST', HOOKS, {
        json: { url: rx.url, event_types: ['event.created', 'event.updated'] },
        as: 'administrator',
      });
      rx.useSecret(r.body.secret);
      rx.delayAnswers(5);
      const ids = await Promise.all(
        Array.from({ length: 60 }, (_, i) => createEvent(svc, { title: `Twin ${i}` }).then((e) => e.id as number)),
      );
      // One request first: the sibling verifies the password once, not 60 times at once (the login throttle's limit).
      expect((await sibling.get('/events', { as: 'administrator' })).status).toBe(200);
      const updates = await Promise.all(
        ids.map((id, i) =>
          sibling.request('POST', `/events/${id}`, { form: { title: `Twin ${i}b` }, as: 'administrator' }),
        ),
      );
      expect(updates.map((u) => u.status)).toEqual(Array(60).fill(200));
      await waitFor(() => rx.received.length >= 120, 30_000);
      await new Promise((r) => setTimeout(r, 300));
      expect(rx.received).toHaveLength(120);
      expect([...rx.attemptsOf.values()].every((n) => n === 1)).toBe(true);
      // Per event: created before updated, whichever instance sent them.
      for (const id of ids) {
        const types = rx.received.filter((m) => m.body.data.id === id).map((m) => m.body.type);
        expect(types).toEqual(['event.created', 'event.updated']);
      }
    } finally {
      await sibling.close();
      await svc.close();
      await rx.close();
    }
  });
});
