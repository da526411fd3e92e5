import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const NEWS = fileURLToPath(new URL('../../bin/news.js', import.meta.url));

/** Runs `news <args>` to completion (2 min at most) and returns its status and output. */
export const runNewsSync = (...args: string[]): SpawnSyncReturns<string> =>
  spawnSync(process.execPath, [NEWS, ...args], { encoding: 'utf8', timeout: 120_000 });

/** The JSON lines of a command's output. */
export const jsonLines = (text: string): Record<string, unknown>[] =>
  text
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
