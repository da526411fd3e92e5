/** Plumbing shared by the news benchmarks: starting `news` processes, percentiles, and the BENCHMARKS.md section. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../../../', import.meta.url));
export const CORPORA = fileURLToPath(new URL('../../../../shared/corpora', import.meta.url));
export const NEWS_BIN = fileURLToPath(new URL('../bin/news.js', import.meta.url));
export const BENCHMARKS_FILE = `${REPO}BENCHMARKS.md`;

/** Starts `news <args>` and resolves once it logs `{"event":"listening","url":…}` on stdout. */
export function spawnListening(args: string[], env: Record<string, string> = {}): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [NEWS_BIN, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'ignore'] });
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      try {
        const m = JSON.parse(line) as { event?: string; url?: string };
        if (m.event === 'listening' && m.url !== undefined) resolve({ child, url: m.url });
      } catch { /* not ours */ }
    });
    child.once('exit', (code) => reject(new Error(`news ${args[0]} exited ${code}`)));
  });
}

/** The p-th percentile of an ascending array (nearest rank). */
export function pct(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/** Replaces the section that starts with `heading` (up to the next `## ` heading) in BENCHMARKS.md, or appends it. */
export function writeBenchmarkSection(heading: string, section: string, path = BENCHMARKS_FILE): void {
  const old = existsSync(path) ? readFileSync(path, 'utf8') : '# Benchmarks\n';
  const start = old.indexOf(heading);
  if (start === -1) {
    writeFileSync(path, `${old.trimEnd()}\n\n${section.trimEnd()}\n`);
    return;
  }
  const next = old.indexOf('\n## ', start + heading.length);
  writeFileSync(path, old.slice(0, start) + section.trimEnd() + '\n' + (next === -1 ? '' : `\n${old.slice(next + 1)}`));
}

export interface AutocannonResult {
  requests: { average: number; total: number };
  throughput: { average: number; total: number };
  latency: { p50: number; p99: number; average: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
export interface AutocannonRequest { method: string; path: string; headers: Record<string, string>; setupRequest(req: { body?: string }): { body: string } }
export type Autocannon = (opts: { url: string; connections: number; duration: number; pipelining: number; requests: AutocannonRequest[] }) => Promise<AutocannonResult>;
// autocannon ships no type declarations; this is the slice of its API used here.
export const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;
