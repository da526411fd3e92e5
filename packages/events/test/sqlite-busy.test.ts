import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import SQLite from 'better-sqlite3';
import { STORES, startService, type Service } from './support/harness.ts';

// Issue 23 item 6: a write waits for another connection's write lock up to 5 s without stalling other requests,
// then answers the documented 503.
const event = { title: 'Busy', start_date: '2018-01-12 10:00:00', end_date: '2018-01-12 11:00:00' };

describe('a write while another connection holds the SQLite write lock', () => {
  let svc: Service;
  let other: SQLite.Database;
  beforeAll(async () => {
    svc = await startService(STORES.find((s) => s.name === 'sqlite')!);
    other = new SQLite(svc.dbUrl.slice('sqlite:'.length));
    // Known credentials cost no query afterwards, so the requests below wait only in their write transaction.
    expect((await svc.post('/events', event)).status).toBe(201);
  });
  afterAll(async () => {
    other.close();
    await svc.close();
  });

  it('waits for a lock held under the busy timeout, serving reads meanwhile, then commits', async () => {
    other.exec('begin immediate');
    const started = Date.now();
    const write = svc.post('/events', { ...event, title: 'Waited' });
    await new Promise((r) => setTimeout(r, 300));
    const read = await svc.get('/events', { query: { start_date: '2018-01-01' } });
    expect(read.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(1000);
    await new Promise((r) => setTimeout(r, 700));
    other.exec('commit');
    const res = await write;
    expect(res.status).toBe(201);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
  });

  it(
    'answers 503 db_unavailable with Retry-After when the lock stays held past 5 s, and writes nothing',
    { timeout: 20_000 },
    async () => {
      other.exec('begin immediate');
      const started = Date.now();
      try {
        const res = await svc.post('/events', { ...event, title: 'Never' });
        expect(res.status).toBe(503);
        expect(res.headers.get('retry-after')).toBe('1');
        expect(res.body).toEqual({
          code: 'db_unavailable',
          message: 'The database is temporarily unavailable. Try again shortly.',
          data: { status: 503 },
        });
        expect(Date.now() - started).toBeGreaterThanOrEqual(5000);
      } finally {
        other.exec('rollback');
      }
      const list = await svc.get('/events', { query: { start_date: '2018-01-01', search: 'Never' } });
      expect(list.body.total).toBe(0);
    },
  );
});
