import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { STORES, formEncode, type StoreFactory } from './support/harness.ts';
import { openStore } from '../src/db/index.ts';
import { BIN, serveProcess } from './support/serve-process.ts';
import { startReceiver, waitFor, type Receiver } from './support/webhook-receiver.ts';

const run = promisify(execFile);
const AUTH = `Basic ${Buffer.from('hooks:hooks-password-1').toString('base64')}`;

/** Deliveries to loopback with a 1 s timeout (so a dead instance's claims come back after 3 s). */
const serve = (dbUrl: string) =>
  serveProcess(dbUrl, {
    EVENTS_LOG_LEVEL: 'warn',
    EVENTS_MEDIA_ALLOW_PRIVATE_HOSTS: '1',
    EVENTS_WEBHOOK_POLL_MS: '20',
    EVENTS_WEBHOOK_TIMEOUT_MS: '1000',
  });

describe.each(STORES)('webhooks across a SIGKILL ($name)', (factory: StoreFactory) => {
  let db: { url: string; dispose(): Promise<void> };
  let rx: Receiver;
  beforeAll(async () => {
    db = await factory.create();
    rx = await startReceiver();
  });
  afterAll(async () => {
    await rx.close();
    await db.dispose();
  });

  it(
    'delivers every acknowledged change after a restart; a repeated message keeps its webhook-id',
    { timeout: 90_000 },
    async () => {
      await run(process.execPath, [
        BIN,
        'user',
        'add',
        'hooks',
        '--role',
        'administrator',
        '--app-password',
        'hooks-password-1',
        '--db',
        db.url,
      ]);
      const first = await serve(db.url);
      const rest = (port: number) => `http://127.0.0.1:${port}/wp-json`;
      const sub = await fetch(`${rest(first.port)}/events-service/v1/webhooks`, {
        method: 'POST',
        headers: { authorization: AUTH, 'content-type': 'application/json' },
        body: JSON.stringify({ url: rx.url, event_types: ['event.created', 'event.updated'] }),
      });
      expect(sub.status).toBe(201);
      rx.useSecret(((await sub.json()) as { secret: string }).secret);
      // Slow answers keep deliveries in flight when the service dies.
      rx.delayAnswers(300);
      const acked: number[] = [];
      let stop = false;
      const worker = async (w: number) => {
        for (let i = 0; !stop; i++) {
          try {
            const res = await fetch(`${rest(first.port)}/tribe/events/v1/events`, {
              method: 'POST',
              headers: { authorization: AUTH, 'content-type': 'application/x-www-form-urlencoded' },
              body: formEncode({
                title: `Crash ${w}-${i}`,
                start_date: '2018-01-12 10:00',
                end_date: '2018-01-12 11:00',
              }),
            });
            if (res.status === 201) acked.push(((await res.json()) as { id: number }).id);
          } catch {
            return;
          }
        }
      };
      const exited = new Promise((r) => first.child.once('exit', r));
      const workers = Array.from({ length: 4 }, (_, w) => worker(w));
      await waitFor(() => acked.length >= 40 && rx.received.length >= 5 && rx.inFlight > 0, 60_000);
      first.child.kill('SIGKILL');
      stop = true;
      await Promise.all(workers);
      await exited;
      const beforeRestart = rx.received.length;
      rx.delayAnswers(0);
      const second = await serve(db.url);
      try {
        const createdOf = () =>
          new Set(rx.received.filter((m) => m.body.type === 'event.created').map((m) => m.body.data.id as number));
        await waitFor(() => acked.every((id) => createdOf().has(id)), 30_000);
        // Settled: nothing pending (the dead instance's claims expired and were sent again), nothing failed.
        const store = await openStore(db.url);
        try {
          const open = () =>
            store.db.selectFrom('webhook_outbox').select('status').where('status', '<>', 'delivered').execute();
          await waitFor(async () => (await open()).length === 0, 30_000);
        } finally {
          await store.close();
        }
        // Each message id stands for one change: a repeat (sent again after the kill) carries the same id and body.
        const byId = new Map<string, string>();
        for (const m of rx.received) {
          const body = JSON.stringify(m.body);
          expect(byId.get(m.id) ?? body).toBe(body);
          byId.set(m.id, body);
        }
        expect(rx.rejected).toEqual([]);
        // Messages in flight at the kill were answered to a dead process: sent again, under the same id.
        expect(rx.received.length).toBeGreaterThan(byId.size);
        console.log(
          `${factory.name}: ${acked.length} acknowledged creates, ${beforeRestart} messages before the kill, ` +
            `${rx.received.length} received in all, ${rx.received.length - byId.size} repeated`,
        );
      } finally {
        second.child.kill('SIGTERM');
        await new Promise((r) => second.child.once('exit', r));
      }
    },
  );
});
