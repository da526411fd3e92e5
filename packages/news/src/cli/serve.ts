import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { INDEX_MANIFEST_FILE } from '../release/index.ts';
import type { CliCommand, CliContext } from './context.ts';
import { action, UsageError } from './fail.ts';
import { parsePort } from './worker.ts';

const NEWS_BIN = fileURLToPath(new URL('../../bin/news.js', import.meta.url));

interface Listening {
  readonly child: ChildProcess;
  readonly url: string;
}

/** Starts `news <args>` as a child and resolves with the URL from its `{"event":"listening"}` line. */
function spawnListening(args: readonly string[], env: NodeJS.ProcessEnv, what: string): Promise<Listening> {
  const child = spawn(process.execPath, [NEWS_BIN, ...args], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      try {
        const msg = JSON.parse(line) as { event?: unknown; url?: unknown };
        if (msg.event === 'listening' && typeof msg.url === 'string') resolve({ child, url: msg.url });
      } catch {
        /* not a JSON line: ignore */
      }
    });
    child.once('exit', (code) =>
      reject(new UsageError(`${what} exited with code ${code ?? 'null'} before listening (see its message above)`)),
    );
    child.once('error', reject);
  });
}

/** The release identity named by the release's full-text index manifest. */
export async function readIndexVersion(releaseDir: string): Promise<string> {
  let text: string;
  try {
    text = await readFile(`${releaseDir}/${INDEX_MANIFEST_FILE}`, 'utf8');
  } catch {
    throw new UsageError(
      `${releaseDir} has no ${INDEX_MANIFEST_FILE}; build one with: npx news build --input FILES --out ${releaseDir} --index-version ID`,
    );
  }
  const v = (JSON.parse(text) as { index_version?: unknown }).index_version;
  if (typeof v !== 'string')
    throw new UsageError(`${releaseDir}/${INDEX_MANIFEST_FILE} names no index_version; rebuild the release`);
  return v;
}

/**
 * Starts one worker and one gateway as child processes bound to the release's identity, prints the URL,
 * and stops both when either exits or on Ctrl-C. Development use: the gateway runs with
 * GATEWAY_ENVIRONMENT=development unless the environment says otherwise.
 */
export async function serveRelease(ctx: CliContext, releaseDir: string, port: number): Promise<void> {
  const indexVersion = await readIndexVersion(releaseDir);
  // Both start at once (issue 24: each is a Node process that takes seconds to start, and the worker's start is its
  // release check): the worker on a port chosen here, so the gateway knows its URL before it listens. The URL is
  // printed once both listen, so no request reaches the gateway before the worker answers.
  const workerPort = await freeLoopbackPort();
  const starting = [
    spawnListening(
      [
        'worker',
        '--release',
        releaseDir,
        '--index-version',
        indexVersion,
        '--port',
        String(workerPort),
        '--host',
        '127.0.0.1',
      ],
      process.env,
      'the worker',
    ),
    spawnListening(
      ['gateway', '--port', String(port)],
      {
        ...process.env,
        GATEWAY_INDEX_VERSION: indexVersion,
        GATEWAY_WORKER_URL: `http://127.0.0.1:${workerPort}`,
        GATEWAY_ENVIRONMENT: process.env['GATEWAY_ENVIRONMENT'] ?? 'development',
      },
      'the gateway',
    ),
  ];
  const started = await Promise.allSettled(starting);
  const failed = started.find((r) => r.status === 'rejected');
  if (failed !== undefined) {
    for (const r of started) if (r.status === 'fulfilled') r.value.child.kill('SIGTERM');
    throw failed.reason;
  }
  const [worker, gateway] = started.map((r) => (r as PromiseFulfilledResult<Listening>).value) as [
    Listening,
    Listening,
  ];
  ctx.stdout.write(
    `News search serving release ${indexVersion} at ${gateway.url}  (API reference: ${gateway.url}/api-docs)\n`,
  );
  const children = [worker.child, gateway.child];
  await new Promise<void>((resolve) => {
    let stopping = false;
    const stop = (): void => {
      if (stopping) return;
      stopping = true;
      for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
    };
    for (const c of children) {
      c.once('exit', (code) => {
        if (!stopping) {
          process.exitCode = code === 0 ? 0 : 1;
          ctx.stderr.write(`news serve: a child exited (${code ?? 'signal'}); stopping\n`);
        }
        stop();
        if (children.every((x) => x.exitCode !== null || x.signalCode !== null)) resolve();
      });
    }
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}

/** A port free on 127.0.0.1 now (the worker binds it a moment later; a clash makes the worker exit, and serve with it). */
function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** `news serve --release DIR [--port N]`: worker + gateway for development. */
export const serveCommand: CliCommand = (program: Command, ctx) => {
  program
    .command('serve')
    .description('start a worker and a gateway for a release (development), and print the URL')
    .requiredOption('--release <dir>', 'release directory built by news build')
    .option('--port <n>', 'gateway port (0 picks a free one)', parsePort, 8080)
    .action(
      action(ctx, 'serve', async (flags: { release: string; port: number }) => {
        await serveRelease(ctx, flags.release, flags.port);
      }),
    );
};
