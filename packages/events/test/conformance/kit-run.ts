import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { parseConfig } from '../../src/config/index.ts';
import { openStore } from '../../src/db/index.ts';
import { createEventsApp } from '../../src/app.ts';
import { userService } from '../../src/user/index.ts';
import type { StoreFactory } from '../support/harness.ts';

/** The kits live beside the repository (`../shared/conformance/…` from its root), as in CI's clean clone. */
const kitDir = (name: string) => fileURLToPath(new URL(`../../../../../shared/conformance/${name}`, import.meta.url));

/** A recorded kit: where it is, which REST base its compare.py is given, and the prefix of its summary line. */
export interface Kit {
  readonly dir: string;
  readonly base: string;
  readonly summaryPrefix: string;
  readonly emails: boolean;
  /** Settings of the recorded site (environment variables of the service), e.g. its title. */
  readonly env: Readonly<Record<string, string>>;
}

/** `tribe/events/v1` (issue 11): `--base` is the namespace root. */
export const TRIBE_KIT: Kit = {
  dir: kitDir('tec'),
  base: '/wp-json/tribe/events/v1',
  summaryPrefix: 'tec-dev-conformance:',
  emails: false,
  env: {},
};
/** `tec/v1` (issue 25): `--base` is the REST root; its steps also reach `tribe/events/v1` and WordPress core routes. */
export const TEC_V1_KIT: Kit = {
  dir: kitDir('tec-v1'),
  base: '/wp-json',
  summaryPrefix: 'tec-v1-conformance:',
  emails: true,
  env: { EVENTS_SITE_NAME: 'TEC Reference' },
};
export const KIT_DIR = TRIBE_KIT.dir;

/** The two users both kits' READMEs ask for, created in this order on a fresh store (the e-mails: `tec/v1`'s `users/me`). */
const KIT_USERS = [
  { login: 'admin', role: 'administrator', appPassword: 'TecPeerAppPass0000000000', email: 'admin@example.com' },
  { login: 'casey', role: 'author', appPassword: 'TecDevAuthorPass00000000', email: 'casey@example.com' },
] as const;

export interface StepResult {
  id: string;
  area: string;
  pass: boolean;
  line: string;
  firstDifference?: string;
}
export interface KitRun {
  steps: Map<string, StepResult>;
  summary: string;
  exitCode: number;
  output: string;
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

/** compare.py prints `PASS 001 area  …` or `FAIL 001 area  …` followed by an indented `at …` line per failure. */
export function parseKitOutput(output: string): Map<string, StepResult> {
  const steps = new Map<string, StepResult>();
  let last: StepResult | undefined;
  for (const line of output.split('\n')) {
    const m = /^(PASS|FAIL) (\d{3}) (\S+)/.exec(line);
    if (m) {
      last = { id: m[2]!, area: m[3]!, pass: m[1] === 'PASS', line: line.trim() };
      steps.set(last.id, last);
    } else if (last && !last.pass && last.firstDifference === undefined && /^\s+\S/.test(line)) {
      last.firstDifference = line.trim();
    }
  }
  return steps;
}

/**
 * Serves the real app on a loopback port over a fresh store of `factory`'s kind, with the kit's two users and the
 * real clock (the kit's `clock` steps are relative to the day of the run), and replays the whole kit against it.
 */
export async function runKit(factory: StoreFactory, kit: Kit = TRIBE_KIT): Promise<KitRun> {
  if (!existsSync(join(kit.dir, 'compare.py'))) throw new Error(`conformance kit not found at ${kit.dir}`);
  const db = await factory.create();
  const uploads = mkdtempSync(join(tmpdir(), 'events-kit-uploads-'));
  const store = await openStore(db.url);
  try {
    const users = userService(store.db);
    const port = await freePort();
    const siteUrl = `http://127.0.0.1:${port}`;
    // The `tec/v1` kit's users/me steps read the e-mails, and the administrator's website is the site's home, as on the reference.
    for (const u of KIT_USERS) {
      const profile = kit.emails ? { email: u.email, ...(u.role === 'administrator' ? { url: siteUrl } : {}) } : {};
      await users.add(u.login, u.role, { appPassword: u.appPassword, ...profile });
    }
    const config = parseConfig({ port, db: db.url, siteUrl }, { ...kit.env, EVENTS_UPLOADS_DIR: uploads });
    const app = createEventsApp({ config, store, clock: Date.now, logger: pino({ level: 'silent' }) });
    await app.listen({ port, host: '127.0.0.1' });
    try {
      const [admin, author] = KIT_USERS;
      const args = [
        join(kit.dir, 'compare.py'),
        '--base',
        `${siteUrl}${kit.base}`,
        '--auth',
        `${admin.login}:${admin.appPassword}`,
        '--author-auth',
        `${author.login}:${author.appPassword}`,
      ];
      // Asynchronous on purpose: the server answering the kit runs on this event loop.
      const { output, exitCode } = await new Promise<{ output: string; exitCode: number }>((resolve) => {
        execFile('python3', args, { maxBuffer: 64 * 1024 * 1024, timeout: 240_000 }, (err, stdout, stderr) => {
          const code = err === null ? 0 : typeof err.code === 'number' ? err.code : -1;
          resolve({ output: `${stdout}${stderr}`, exitCode: code });
        });
      });
      const summary = output.split('\n').find((l) => l.startsWith(kit.summaryPrefix)) ?? '(no summary line)';
      return { steps: parseKitOutput(output), summary, exitCode, output };
    } finally {
      await app.close();
    }
  } finally {
    await store.close();
    await db.dispose();
    rmSync(uploads, { recursive: true, force: true });
  }
}
