/** Real `news` processes for end-to-end tests: spawned through bin/news.js exactly as a user runs them. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const NEWS_BIN = fileURLToPath(new URL('../bin/news.js', import.meta.url));

export interface NewsProcess {
  readonly child: ChildProcess;
  /** Resolves with the URL of the `{"event":"listening"}` line; rejects if the process exits first. */
  readonly listening: Promise<string>;
  /** Resolves with the exit code once the process ends. */
  readonly exited: Promise<number | null>;
  stderr(): string;
  stop(): Promise<number | null>;
}

/** `prefix`: a command that runs the process elsewhere, e.g. `['ip', 'netns', 'exec', 'ns1']` (it must exec, not fork). */
export function spawnNews(
  args: readonly string[],
  env: Record<string, string> = {},
  prefix: readonly string[] = [],
): NewsProcess {
  const [cmd, ...cmdArgs] = [...prefix, process.execPath, NEWS_BIN, ...args] as [string, ...string[]];
  const child = spawn(cmd, cmdArgs, {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr!.on('data', (c: Buffer) => {
    err += c.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const listening = new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      try {
        const msg = JSON.parse(line) as { event?: string; url?: string };
        if (msg.event === 'listening' && typeof msg.url === 'string') resolve(msg.url);
      } catch {
        /* other output */
      }
    });
    void exited.then((code) => reject(new Error(`news ${args[0]} exited (${code}) before listening: ${err.trim()}`)));
  });
  listening.catch(() => {
    /* observed by callers that await it */
  });
  return {
    child,
    listening,
    exited,
    stderr: () => err,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}
