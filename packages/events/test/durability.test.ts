import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { STORES, startService, createEvent, formEncode, type Service, type StoreFactory } from './support/harness.ts';
import { openStore } from '../src/db/index.ts';
import { freePort } from './support/serve-process.ts';

const BIN = fileURLToPath(new URL('../bin/events.js', import.meta.url));
const run = promisify(execFile);

describe.each(STORES)('concurrent writes ($name)', (factory) => {
  let svc: Service;
  beforeAll(async () => {
    svc = await startService(factory);
  });
  afterAll(() => svc.close());

  it('50 parallel creates of the same title lose nothing and get 50 distinct slugs', async () => {
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        svc.request('POST', '/events', {
          form: {
            title: 'Rush hour',
            start_date: '2018-01-12 10:00',
            end_date: '2018-01-12 11:00',
            categories: 'Shared cat',
            organizer: { organizer: `Org ${i % 5}` },
          },
          as: i % 2 ? 'administrator' : 'editor',
        }),
      ),
    );
    for (const r of results) if (r.status !== 201) console.log('BAD', r.status, JSON.stringify(r.body).slice(0, 300));
    expect(results.map((r) => r.status)).toEqual(Array(50).fill(201));
    const slugs = new Set(results.map((r) => r.body.slug));
    expect(slugs.size).toBe(50);
    expect(slugs.has('rush-hour')).toBe(true);
    const list = await svc.get('/events', { query: { search: 'Rush hour', per_page: 50 } });
    expect(list.body.total).toBe(50);
    const cats = await svc.get('/categories', { query: { search: 'Shared cat' } });
    expect(cats.body.categories).toHaveLength(1);
    expect(cats.body.categories[0].count).toBe(50);
  });

  it('50 parallel updates to one event and to many events are all applied', async () => {
    const target = await createEvent(svc, { title: 'Contended' });
    const events = await Promise.all(Array.from({ length: 25 }, (_, i) => createEvent(svc, { title: `Own ${i}` })));
    const fields = ['cost', 'website', 'excerpt', 'featured', 'sticky'] as const;
    const values: Record<(typeof fields)[number], string> = {
      cost: '42',
      website: 'http://x.test',
      excerpt: 'Ex',
      featured: 'true',
      sticky: 'true',
    };
    const results = await Promise.all([
      ...Array.from({ length: 25 }, (_, i) =>
        svc.request('PUT', `/events/${target.id}`, {
          form: { [fields[i % 5]!]: values[fields[i % 5]!] },
          as: 'administrator',
        }),
      ),
      ...events.map((e, i) =>
        svc.request('PATCH', `/events/${e.id}`, { form: { title: `Own ${i} updated` }, as: 'editor' }),
      ),
    ]);
    expect(results.every((r) => r.status === 200)).toBe(true);
    const after = (await svc.get(`/events/${target.id}`)).body;
    expect(after).toMatchObject({
      cost: '$42',
      website: 'http://x.test',
      excerpt: '<p>Ex</p>',
      featured: true,
      sticky: true,
      title: 'Contended',
    });
    for (const [i, e] of events.entries())
      expect((await svc.get(`/events/${e.id}`)).body.title).toBe(`Own ${i} updated`);
  });
});

async function waitForPort(port: number, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      await fetch(`http://127.0.0.1:${port}/wp-json/`);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  throw new Error('server did not start');
}

describe.each(STORES)('SIGKILL during a write burst ($name)', (factory: StoreFactory) => {
  let db: { url: string; dispose(): Promise<void> };
  beforeAll(async () => {
    db = await factory.create();
  });
  afterAll(() => db.dispose());

  it('keeps every acknowledged write after a restart', { timeout: 120_000 }, async () => {
    await run(process.execPath, [
      BIN,
      'user',
      'add',
      'burst',
      '--role',
      'editor',
      '--app-password',
      'burst-password-1',
      '--db',
      db.url,
    ]);
    const { stdout } = await run(process.execPath, [BIN, 'user', 'list', '--db', db.url]);
    expect(stdout).toContain('burst\teditor');
    // The OS picks the port: a random one collided with another test file's server once two files ran at a time.
    const port = await freePort();
    const child = spawn(process.execPath, [BIN, 'serve', '--port', String(port), '--db', db.url], {
      stdio: 'ignore',
      env: { ...process.env, EVENTS_LOG_LEVEL: 'warn' },
    });
    await waitForPort(port, child);
    const auth = `Basic ${Buffer.from('burst:burst-password-1').toString('base64')}`;
    const acked: number[] = [];
    let stop = false;
    const worker = async (w: number) => {
      for (let i = 0; !stop; i++) {
        try {
          const res = await fetch(`http://127.0.0.1:${port}/wp-json/tribe/events/v1/events`, {
            method: 'POST',
            headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' },
            body: formEncode({
              title: `Burst ${w}-${i}`,
              start_date: '2018-01-12 10:00',
              end_date: '2018-01-12 11:00',
              tags: `t${w}`,
            }),
          });
          if (res.status === 201) acked.push(((await res.json()) as { id: number }).id);
        } catch {
          return;
        }
      }
    };
    const exited = new Promise((r) => child.once('exit', r));
    const workers = Array.from({ length: 6 }, (_, w) => worker(w));
    const deadline = Date.now() + 60_000;
    while (acked.length < 30 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    child.kill('SIGKILL');
    stop = true;
    await Promise.all(workers);
    await exited;
    expect(acked.length).toBeGreaterThanOrEqual(30);
    const store = await openStore(db.url);
    try {
      const rows = await store.db
        .selectFrom('posts')
        .innerJoin('events', 'events.post_id', 'posts.id')
        .select('posts.id')
        .where('posts.id', 'in', acked)
        .execute();
      expect(rows.length).toBe(acked.length);
    } finally {
      await store.close();
    }
  });
});
