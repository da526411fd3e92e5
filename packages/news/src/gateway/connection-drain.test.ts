import { describe, expect, it } from 'vitest';
import { request, Agent } from 'node:http';
import { connect } from 'node:net';
import Fastify from 'fastify';
import { drainConnectionsOnClose } from './connection-drain.ts';

/** A server with the gateway's keep-alive timeout whose `/held` answers only when `release()` is called. */
async function heldServer() {
  const app = Fastify({ keepAliveTimeout: 65_000 });
  drainConnectionsOnClose(app);
  let release = () => {};
  const arrived = new Promise<void>((resolveArrived) => {
    app.get('/held', async () => {
      resolveArrived();
      await new Promise<void>((r) => {
        release = r;
      });
      return { ok: true };
    });
  });
  app.get('/quick', async () => ({ ok: true }));
  // Registered after the drain's own hook, so it runs once the drain knows the server is closing.
  const closing = new Promise<void>((r) =>
    app.addHook('preClose', (done) => {
      r();
      done();
    }),
  );
  await app.listen({ host: '127.0.0.1', port: 0 });
  const port = (app.server.address() as { port: number }).port;
  return { app, port, arrived, closing, release: () => release() };
}

async function timed(p: Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await p;
  return performance.now() - t0;
}

describe('closing the gateway with connections open', () => {
  it('closes at once while a client holds a connection that never sent a request (a browser preconnect)', async () => {
    const { app, port } = await heldServer();
    const socket = connect(port, '127.0.0.1');
    await new Promise<void>((r) => socket.once('connect', () => r()));
    const ended = new Promise<void>((r) => socket.once('close', () => r()));
    expect(await timed(app.close())).toBeLessThan(2_000);
    await ended;
  });

  it('answers a request under way at close with Connection: close, then closes', async () => {
    const { app, port, arrived, closing, release } = await heldServer();
    const agent = new Agent({ keepAlive: true });
    const answer = new Promise<{ status: number; connection: string | undefined; body: string }>((resolve, reject) => {
      request({ host: '127.0.0.1', port, path: '/held', agent }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => {
          body += c.toString();
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body }));
      })
        .on('error', reject)
        .end();
    });
    await arrived;
    const closed = timed(app.close());
    await closing;
    release();
    expect(await answer).toEqual({ status: 200, connection: 'close', body: '{"ok":true}' });
    expect(await closed).toBeLessThan(2_000);
    agent.destroy();
  });

  it('closes idle keep-alive connections of earlier answers', async () => {
    const { app, port } = await heldServer();
    const agent = new Agent({ keepAlive: true });
    const status = await new Promise<number>((resolve, reject) => {
      request({ host: '127.0.0.1', port, path: '/quick', agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      })
        .on('error', reject)
        .end();
    });
    expect(status).toBe(200);
    expect(await timed(app.close())).toBeLessThan(2_000);
    agent.destroy();
  });
});
