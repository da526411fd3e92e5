import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, STORES, createEvent, startService, type Service } from './support/harness.ts';

// `events import tec URL` as an operator runs it: progress on stderr, the summary on stdout, exit 2 with the reason
// when the source cannot be imported. The source is a second instance of the service on loopback.

const BIN = fileURLToPath(new URL('../bin/events.js', import.meta.url));
const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'events-cli-tec-'));
const db = `sqlite:${join(dir, 'target.sqlite')}`;

const events = (env: NodeJS.ProcessEnv, ...args: string[]) =>
  run(process.execPath, [BIN, ...args], { env: { ...process.env, ...env } }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (err: { code: number; stdout: string; stderr: string }) => err,
  );
const LOOPBACK = { EVENTS_MEDIA_ALLOW_PRIVATE_HOSTS: '1' };

let source: Service;
beforeAll(async () => {
  source = await startService(STORES[0]!);
  await createEvent(source, { title: 'Open day', venue: { venue: 'Main hall' } });
  await createEvent(source, { title: 'Plans', status: 'draft' });
  const added = await events({}, 'user', 'add', 'admin', '--role', 'administrator', '--db', db);
  expect(added.code, added.stderr).toBe(0);
});
afterAll(async () => {
  await source.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('events import tec', () => {
  it('prints pages read on stderr and a summary per kind; dry run first, then the import, then nothing to do', async () => {
    const auth = ['--auth', `administrator:${PASSWORD}`, '--db', db];
    const dry = await events(LOOPBACK, 'import', 'tec', source.base, ...auth, '--dry-run');
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stderr).toContain('read events page 1 of 1');
    expect(dry.stdout).toContain('dry run: would import from');
    expect(dry.stdout).toContain('events: 2 created, 0 updated, 0 unchanged');
    const done = await events(LOOPBACK, 'import', 'tec', source.base, ...auth);
    expect(done.stdout).toContain('(ids kept: the store was empty)');
    expect(done.stdout).toContain('venues: 1 created, 0 updated, 0 unchanged');
    expect(done.stdout).toContain('events: 2 created, 0 updated, 0 unchanged');
    // The source's five users are not this store's `admin`: created, and the summary says they cannot sign in yet.
    expect(done.stdout).toContain(
      'users (edit context): 5 created without an application password, 0 matched; 0 items keep the importing user as author',
    );
    const again = await events(LOOPBACK, 'import', 'tec', source.base, ...auth);
    expect(again.stdout).toContain('events: 0 created, 0 updated, 2 unchanged');
    expect(again.stdout).toContain('users (edit context): 0 created without an application password, 5 matched');
  });

  it('exits 2 with the reason: a loopback source without the opt-in, wrong credentials, a bad --auth', async () => {
    const privateHost = await events({}, 'import', 'tec', source.base, '--db', db);
    expect(privateHost.code).toBe(2);
    expect(privateHost.stderr).toMatch(
      /events: http:\/\/127\.0\.0\.1:\d+\/wp-json\/tribe\/events\/v1\/categories\?.*\(nothing imported\)/,
    );
    const wrong = await events(LOOPBACK, 'import', 'tec', source.base, '--auth', 'administrator:nope', '--db', db);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('answered 401 (check the user and application password of --auth)');
    const bad = await events(LOOPBACK, 'import', 'tec', source.base, '--auth', 'nocolon', '--db', db);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--auth takes USER:APP-PASSWORD');
  });
});
