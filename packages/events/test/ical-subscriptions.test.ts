import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORES, startService, type Service } from './support/harness.ts';
import { calendar, vevent } from './support/ics-import.ts';
import { DEFAULT_ICS_LIMITS, readFeedSource, subscriptionRepository, type Subscription } from '../src/import/index.ts';

// Issue 30 item 2: `events import ics FILE|URL` and `events subscribe URL --every 1h`, run by the service on its
// schedule, fetching through the safe-fetch rules (loopback only with EVENTS_MEDIA_ALLOW_PRIVATE_HOSTS, as here).

const BIN = fileURLToPath(new URL('../bin/events.js', import.meta.url));
const run = promisify(execFile);
const WIDE = { start_date: '2000-01-01', end_date: '2100-01-01', per_page: 50 };

/** A feed host on loopback: `/feed.ics` serves `feed.text`, `/endless` never stops sending. */
async function startFeedHost() {
  const feed = { text: '' };
  const server = http.createServer((req, res) => {
    if (req.url === '/feed.ics') {
      res.writeHead(200, { 'content-type': 'text/calendar; charset=utf-8' });
      res.end(feed.text);
      return;
    }
    if (req.url === '/endless') {
      res.writeHead(200, { 'content-type': 'text/calendar' });
      const line = Buffer.from(`BEGIN:VCALENDAR\r\n${'X-FILL:'.padEnd(70, 'x')}\r\n`.repeat(1000));
      const pump = () => {
        while (res.write(line));
      };
      res.on('drain', pump);
      res.on('close', () => res.off('drain', pump));
      pump();
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    feed,
    base,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe.each(STORES)('iCalendar CLI and subscriptions ($name)', (factory) => {
  let svc: Service;
  let host: Awaited<ReturnType<typeof startFeedHost>>;
  let dir: string;
  const env = { EVENTS_MEDIA_ALLOW_PRIVATE_HOSTS: '1', EVENTS_ICAL_POLL_MS: '50' };
  beforeAll(async () => {
    host = await startFeedHost();
    svc = await startService(factory, { now: Date.now(), env });
    dir = mkdtempSync(join(tmpdir(), 'events-ics-'));
  });
  afterAll(async () => {
    await svc.close();
    await host.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const cli = (args: string[], extraEnv: NodeJS.ProcessEnv = {}) =>
    run(process.execPath, [BIN, ...args, '--db', svc.dbUrl], {
      env: { ...process.env, EVENTS_UPLOADS_DIR: svc.uploadsDir, ...extraEnv },
    }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (err: { code: number; stdout: string; stderr: string }) => err,
    );
  const titles = async () =>
    (await svc.get('/events', { query: WIDE })).body.events.map((e: { title: string }) => e.title).sort();
  /** The subscription to `url` once its last run is later than `after` (the service runs it on its own timer). */
  const ranAfter = async (url: string, after: number | null): Promise<Subscription> => {
    const repo = subscriptionRepository(svc.store.db);
    for (let i = 0; i < 1200; i++) {
      const s = (await repo.list()).find((x) => x.url === url);
      if (s !== undefined && s.lastRunMs !== null && (after === null || s.lastRunMs > after)) return s;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`the subscription to ${url} did not run`);
  };

  it(
    'imports a file with --dry-run first, refuses a bad one, and refuses loopback URLs without the private-hosts setting',
    { timeout: 240_000 },
    async () => {
      const file = join(dir, 'one.ics');
      writeFileSync(file, calendar(...vevent('UID:cli@test', 'DTSTART:20300101T100000Z', 'SUMMARY:From the CLI')));
      const dry = await cli(['import', 'ics', file, '--dry-run']);
      expect(dry.stdout).toContain(
        'dry run: would import 1 VEVENTs: 1 created, 0 updated, 0 unchanged, 0 trashed, 0 refused',
      );
      expect(await titles()).not.toContain('From the CLI');
      expect((await cli(['import', 'ics', file])).stdout).toContain('imported 1 VEVENTs: 1 created');
      expect(await titles()).toContain('From the CLI');
      // The safe-fetch rules: a loopback URL is refused unless EVENTS_MEDIA_ALLOW_PRIVATE_HOSTS allows it.
      const opts = { limits: DEFAULT_ICS_LIMITS, allowPrivateHosts: false, timeoutMs: 5000 };
      await expect(readFeedSource(`${host.base}/feed.ics`, opts)).rejects.toThrow(/only ports 80, 443 and 8080/);
      await expect(readFeedSource('http://127.0.0.1/feed.ics', opts)).rejects.toThrow(/the address is not public/);
      const bad = join(dir, 'bad.ics');
      writeFileSync(
        bad,
        calendar(...vevent('UID:bad@test', 'DTSTART:20300103T100000Z', 'SUMMARY:Bad', 'RRULE:FREQ=HOURLY;COUNT=2')),
      );
      const badRun = await cli(['import', 'ics', bad]);
      expect(badRun.code).toBe(2);
      expect(badRun.stderr).toContain('bad@test: recurrence:');
      expect(badRun.stderr).toContain('1 VEVENT(s) refused; nothing imported');
    },
  );

  it(
    'runs a subscription in the service on its schedule: first import, then a re-sync after the interval',
    { timeout: 240_000 },
    async () => {
      const url = `${host.base}/feed.ics`;
      host.feed.text = calendar(
        ...vevent('UID:s1@test', 'DTSTART:20300201T100000Z', 'SUMMARY:Sub one'),
        ...vevent('UID:s2@test', 'DTSTART:20300202T100000Z', 'SUMMARY:Sub two'),
      );
      expect((await cli(['subscribe', url, '--every', '1h'])).stdout).toContain(`subscribed to ${url}: every 1h`);
      // The CLI made it due at the wall-clock time it ran; the service's test clock catches up with that.
      svc.clock.now = Date.now();
      const first = await ranAfter(url, null);
      expect(first).toMatchObject({ lastStatus: 'ok', everySeconds: 3600, trashVanished: true });
      expect(first.lastMessage).toContain('2 VEVENTs: 2 created');
      expect(await titles()).toEqual(expect.arrayContaining(['Sub one', 'Sub two']));
      // Not due again before the hour is over; then the changed feed is applied.
      host.feed.text = calendar(...vevent('UID:s1@test', 'DTSTART:20300201T100000Z', 'SUMMARY:Sub one (moved)'));
      svc.clock.now += 3_600_000;
      const second = await ranAfter(url, first.lastRunMs);
      expect(second.lastMessage).toContain('1 VEVENTs: 0 created, 1 updated, 0 unchanged, 1 trashed');
      expect(await titles()).toEqual(expect.arrayContaining(['Sub one (moved)']));
      expect(await titles()).not.toContain('Sub two');
      const list = await cli(['subscriptions', 'list']);
      expect(list.stdout).toContain(`${url}\tevery 1h\ttrash-vanished`);
      expect((await cli(['subscriptions', 'remove', url])).stdout).toContain(`removed ${url}`);
      expect(await subscriptionRepository(svc.store.db).list()).toEqual([]);
    },
  );

  it('records a bounded error for an endless feed', { timeout: 120_000 }, async () => {
    const url = `${host.base}/endless`;
    const repo = subscriptionRepository(svc.store.db);
    await repo.add({ url, everySeconds: 1800, trashVanished: true, authorId: null }, svc.clock.now);
    const s = await ranAfter(url, null);
    expect(s.lastStatus).toBe('error');
    expect(s.lastMessage).toContain('the feed is larger than the limit (33554432 bytes)');
    expect(await repo.remove(url)).toBe(true);
  });
});
