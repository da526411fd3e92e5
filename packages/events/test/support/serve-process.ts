import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../bin/events.js', import.meta.url));

/** A loopback port nothing listens on right now (the OS picks it, so parallel test files do not collide). */
export const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

/** `events serve` over `dbUrl` as its own process on a free loopback port, once it answers; `env` adds settings. */
export async function serveProcess(
  dbUrl: string,
  env: NodeJS.ProcessEnv = {},
): Promise<{ port: number; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, [BIN, 'serve', '--port', String(port), '--db', dbUrl], {
    stdio: 'ignore',
    env: { ...process.env, EVENTS_LOG_LEVEL: 'fatal', ...env },
  });
  for (let i = 0; i < 400; i++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      await fetch(`http://127.0.0.1:${port}/wp-json/`);
      return { port, child };
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  throw new Error('server did not start');
}
