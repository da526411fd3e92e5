import { describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { MissingRouteCost, registerAdmission } from './admission-control.ts';
import { toErrorResponse } from '../errors/index.ts';

const settings = { perClient: 1, inFlight: 1, timeoutMs: 1000 };

describe('registerAdmission', () => {
  it('refuses to register an /api/ route that declares no cost', async () => {
    const app = Fastify();
    registerAdmission(app, settings);
    let failure: unknown;
    try {
      app.post('/api/v3/query', async () => ({}));
      await app.ready();
    } catch (e) {
      failure = e;
    }
    expect(failure).toBeInstanceOf(MissingRouteCost);
    expect((failure as Error).message).toMatch('POST /api/v3/query declares no cost');
    await app.close().catch(() => undefined);
  });

  it('registers routes outside /api/ and /api/ routes with a cost', async () => {
    const app = Fastify();
    registerAdmission(app, settings);
    app.get('/about', async () => 'ok');
    app.post('/api/v3/query', { config: { cost: 'expensive' } }, async () => ({ ok: true }));
    await app.ready();
    expect((await app.inject({ method: 'POST', url: '/api/v3/query', payload: {} })).json()).toEqual({ ok: true });
    await app.close();
  });
});

const tick = () => new Promise((r) => setTimeout(r, 20));

describe('admission of expensive calls (in-process, a route held open by the test)', () => {
  async function appWithGate(timeoutMs: number) {
    const app = Fastify();
    const state = registerAdmission(app, { perClient: 2, inFlight: 1, timeoutMs });
    app.setErrorHandler((err, _req, reply) => {
      const res = toErrorResponse(err);
      return reply.code(res.status).headers(res.headers).send(res.body);
    });
    let open: () => void = () => undefined;
    const gate = new Promise<void>((r) => {
      open = r;
    });
    app.post('/api/slow', { config: { cost: 'expensive' } }, async () => {
      await gate;
      return { ok: true };
    });
    app.post('/api/cheap', { config: { cost: 'cheap' } }, async () => ({ ok: true }));
    await app.ready();
    // inject dispatches only once awaited; Promise.resolve starts it now, in call order.
    const post = (url: string, ip: string) =>
      Promise.resolve(app.inject({ method: 'POST', url, payload: {}, remoteAddress: ip }));
    return { app, state, open, post };
  }

  it('answers 503 overloaded with Retry-After when the lane stays full past the deadline, and gives the budget back', async () => {
    const { app, state, open, post } = await appWithGate(150);
    const holder = post('/api/slow', '203.0.113.1');
    await tick();
    const waiter = await post('/api/slow', '203.0.113.2');
    expect([waiter.statusCode, waiter.headers['retry-after']]).toEqual([503, '1']);
    expect(waiter.json()).toEqual({ detail: expect.stringContaining('filled the 1 slots'), code: 'overloaded' });
    expect(state.budget.held('203.0.113.2')).toBe(0);
    expect((await post('/api/cheap', '203.0.113.2')).statusCode).toBe(200);
    open();
    expect((await holder).statusCode).toBe(200);
    expect([state.budget.clients, state.lane.waiting]).toEqual([0, 0]);
    await app.close();
  });

  it('hands the lane slot to the next waiter once the holder answers', async () => {
    const { app, state, open, post } = await appWithGate(5000);
    const first = post('/api/slow', '203.0.113.1');
    await tick();
    const second = post('/api/slow', '203.0.113.1');
    await tick();
    const third = post('/api/slow', '203.0.113.1');
    expect((await third).statusCode).toBe(429);
    expect(state.lane.waiting).toBe(1);
    open();
    expect([(await first).statusCode, (await second).statusCode]).toEqual([200, 200]);
    expect([state.budget.clients, state.lane.waiting]).toEqual([0, 0]);
    await app.close();
  });
});
