/** Plumbing shared by the news benchmarks: starting `news` processes, percentiles, and the BENCHMARKS.md section. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { buildRelease, INDEX_MANIFEST_FILE } from '../src/release/index.ts';

export const REPO = fileURLToPath(new URL('../../../', import.meta.url));
export const CORPORA = fileURLToPath(new URL('../../../../shared/corpora', import.meta.url));
export const NEWS_BIN = fileURLToPath(new URL('../bin/news.js', import.meta.url));
export const BENCHMARKS_FILE = `${REPO}BENCHMARKS.md`;

/** Starts `news <args>` (from `bin`, e.g. another checkout's) and resolves once it logs `{"event":"listening","url":…}` on stdout. */
export function spawnListening(
  args: string[],
  env: Record<string, string> = {},
  bin = NEWS_BIN,
): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [bin, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      try {
        const m = JSON.parse(line) as { event?: string; url?: string };
        if (m.event === 'listening' && m.url !== undefined) resolve({ child, url: m.url });
      } catch {
        /* not ours */
      }
    });
    child.once('exit', (code) => reject(new Error(`news ${args[0]} exited ${code}`)));
  });
}

/**
 * Throughput benchmarks measure the serving path, not the fairness policy: their one load generator (one address,
 * 16 connections) would otherwise be refused beyond 6 expensive calls. bench:fairness measures the policy.
 */
export const ADMISSION_OPEN_ENV = { GATEWAY_EXPENSIVE_PER_CLIENT: '1000', GATEWAY_EXPENSIVE_IN_FLIGHT: '15' } as const;

/** Builds a release of the shared real corpora into `dir` unless one is there (benchmarks cache it under /tmp). */
export async function ensureCorporaRelease(dir: string, indexVersion: string): Promise<void> {
  if (!existsSync(CORPORA)) throw new Error(`the benchmark needs the shared corpora in ${CORPORA}`);
  if (existsSync(`${dir}/${INDEX_MANIFEST_FILE}`)) return;
  console.error(`building the release from ${CORPORA} into ${dir} (once) …`);
  await buildRelease({ inputs: [CORPORA], out: dir, indexVersion, force: true });
}

/**
 * Frees what closed releases held before the next one opens: close() drops the references, but the arrays go only
 * when V8 collects, and a 20 GB month's disk-mode copy (9.4 GB) still alive beside its memory-mode copy (17 GB) was
 * killed by the kernel. Collections with pauses between them: the first collects the native locate handles, whose
 * finalizers (run later) release the addon's references to the arrays; the next frees the arrays.
 * Needs node --expose-gc (the bench:scale script passes it); elsewhere a no-op.
 */
export async function collectGarbage(): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) return;
  // The finalizers run after a later tick (one setImmediate turn was not enough); three rounds, measured enough.
  for (let round = 0; round < 3; round++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
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
export interface AutocannonRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  setupRequest(req: { body?: string }): { body: string };
}
export type Autocannon = (opts: {
  url: string;
  connections: number;
  duration: number;
  pipelining: number;
  requests: AutocannonRequest[];
}) => Promise<AutocannonResult>;
// autocannon ships no type declarations; this is the slice of its API used here.
export const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

/** CPU time (user + system) a process has used, in microseconds, from /proc (clock ticks of 10 ms). */
export function cpuMicros(pid: number | undefined): number {
  if (pid === undefined) return NaN;
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/**
 * 40,000 distinct one- and two-word phrases drawn deterministically from the corpora: more than the worker's
 * 10,000-entry result cache holds, so in rotation every request misses it.
 */
export function distinctQueries(n: number): string[] {
  const words: string[] = [];
  for (const d of readdirSync(CORPORA, { withFileTypes: true }).filter((e) => e.isDirectory())) {
    for (const f of readdirSync(join(CORPORA, d.name)).filter((x) => x.endsWith('.jsonl.gz'))) {
      const lines = gunzipSync(readFileSync(join(CORPORA, d.name, f)))
        .toString('utf8')
        .split('\n');
      for (let i = 0; i < lines.length; i += 7) {
        if (lines[i] === '') continue;
        const text = (JSON.parse(lines[i]!) as { text: string }).text;
        words.push(
          ...text
            .split(/\s+/)
            .filter((w) => w.length > 1)
            .slice(0, 40),
        );
      }
    }
  }
  const out = new Set<string>();
  // mulberry32: 32-bit integer arithmetic (a float LCG loses precision above 2^53 and falls into short cycles).
  let seed = 7;
  const rnd = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  for (let tries = 0; out.size < n && tries < n * 20; tries++) {
    const i = Math.floor(rnd() * (words.length - 1));
    out.add(rnd() < 0.5 ? words[i]! : `${words[i]} ${words[i + 1]}`);
  }
  return [...out];
}

/**
 * Builds a release of the shared real corpora at `release` once (kept for later runs), then starts a worker on it
 * and a gateway bound to it (from `bin`, e.g. another checkout's, for an A/B run); `stop` ends both.
 */
export async function startCorporaStack(
  release: string,
  indexVersion: string,
  bin = NEWS_BIN,
): Promise<{ url: string; stop(): void }> {
  await ensureCorporaRelease(release, indexVersion);
  const worker = await spawnListening(
    ['worker', '--release', release, '--index-version', indexVersion, '--port', '0', '--verify', 'sizes'],
    {},
    bin,
  );
  const gateway = await spawnListening(
    ['gateway', '--port', '0'],
    {
      GATEWAY_INDEX_VERSION: indexVersion,
      GATEWAY_WORKER_URL: worker.url,
      GATEWAY_ENVIRONMENT: 'development',
      ...ADMISSION_OPEN_ENV,
    },
    bin,
  );
  return {
    url: gateway.url,
    stop: () => {
      gateway.child.kill();
      worker.child.kill();
    },
  };
}
