import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { parseConfig } from '../../src/config/index.ts';
import { openStore } from '../../src/db/index.ts';
import { createEventsApp } from '../../src/app.ts';
import { userService } from '../../src/user/index.ts';

/** Our service on a temporary SQLite store with one administrator, as an MCP server's WordPress site. */
export interface EventsSite {
  readonly siteUrl: string;
  readonly login: string;
  /** The administrator's generated application password. */
  readonly password: string;
  /** `METHOD URL STATUS` of every request answered, in order. */
  readonly seen: readonly string[];
  close(): Promise<void>;
}

export const freeLoopbackUrl = () =>
  new Promise<string>((done, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(`http://127.0.0.1:${port}`));
    });
  });

/** Serves at `base` (its origin is the site URL); everything it writes is deleted by `close`. */
export async function startEventsSite(base: URL): Promise<EventsSite> {
  const siteUrl = base.origin;
  const work = mkdtempSync(join(tmpdir(), 'events-mcp-site-'));
  const dbUrl = `sqlite:${join(work, 'events.sqlite')}`;
  const store = await openStore(dbUrl);
  const { password } = await userService(store.db).add('admin', 'administrator', {
    email: 'admin@example.com',
    url: siteUrl,
  });
  const config = parseConfig(
    { port: Number(base.port || 80), host: base.hostname, db: dbUrl, siteUrl },
    { EVENTS_UPLOADS_DIR: join(work, 'uploads'), EVENTS_SITE_NAME: 'MCP run' },
  );
  const app = createEventsApp({ config, store, clock: Date.now, logger: pino({ level: 'silent' }) });
  const seen: string[] = [];
  app.addHook('onResponse', async (req, reply) => {
    seen.push(`${req.method} ${req.url} ${reply.statusCode}`);
  });
  await app.listen({ port: config.port, host: config.host });
  return {
    siteUrl,
    login: 'admin',
    password,
    seen,
    async close() {
      await app.close();
      await store.close();
      rmSync(work, { recursive: true, force: true });
    },
  };
}
