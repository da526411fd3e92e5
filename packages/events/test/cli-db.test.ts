import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

// Issue 25: `--db /path/file.sqlite` (a bare path) used to reach the PostgreSQL driver as a socket folder
// (`connect ENOENT …/.s.PGSQL.5432`). A SQLite file path is now taken as `sqlite:PATH`; anything else is refused
// with the forms the value may take.

const BIN = fileURLToPath(new URL('../bin/events.js', import.meta.url));
const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'events-cli-db-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const events = (...args: string[]) =>
  run(process.execPath, [BIN, ...args]).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (err: { code: number; stdout: string; stderr: string }) => err,
  );

describe('events --db', () => {
  it('takes a bare path to a .sqlite file as that SQLite file', async () => {
    const file = join(dir, 'nested', 'events.sqlite');
    const added = await events(
      'user',
      'add',
      'jo',
      '--role',
      'author',
      '--app-password',
      'jo-app-password-0000',
      '--db',
      file,
    );
    expect(added.code, added.stderr).toBe(0);
    expect(existsSync(file)).toBe(true);
    const listed = await events('user', 'list', '--db', `sqlite:${file}`);
    expect(listed.stdout).toContain('jo');
  });

  it('refuses a value that is neither a URL nor a SQLite file, saying what it must look like', async () => {
    const bad = await events('user', 'list', '--db', dir);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      '--db must be sqlite:PATH, a SQLite file path ending in .sqlite, .sqlite3 or .db, or postgres://',
    );
    const serve = await events('serve', '--port', '0', '--db', 'mysql://root@localhost/events');
    expect(serve.code).toBe(2);
    expect(serve.stderr).toContain('--db must be sqlite:PATH');
  });
});
