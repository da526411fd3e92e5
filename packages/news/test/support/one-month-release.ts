/**
 * Issue 24's path as a new user takes it: `news demo-corpus` with every article in one crawl month, `news build`
 * with the defaults (one part up to 1 GiB, a suffix array over 2 GiB), then `news serve` in memory mode, the
 * counts checked against a plain scan of the corpus. Shared by `NEWS_BIG_TESTS=1 test/big-open.test.ts` and
 * `npm run bench:big-open`, which also report the worker's RSS and the start time.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createReadStream, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createGunzip } from 'node:zlib';
import { bruteCount } from './corpora.ts';

const NEWS_BIN = fileURLToPath(new URL('../../bin/news.js', import.meta.url));

/** Phrases of the synthetic vocabulary (1 to 3 words, one absent), fixed so every run checks the same counts. */
export const BIG_OPEN_PHRASES: readonly string[] = [
  'thona',
  'bothouhu wem',
  'Suthatroust peafeanea',
  'fol rumurea thona',
  'zqxj never generated',
];

export interface RunResult {
  readonly ms: number;
  /** Peak resident set of the process (VmHWM) as last sampled before it exited. */
  readonly peakRssBytes: number;
}

/** Runs `news <args>` to completion, sampling its peak RSS; rejects with its stderr when it fails. */
export function runNews(args: readonly string[]): Promise<RunResult> {
  const started = performance.now();
  const child = spawn(process.execPath, [NEWS_BIN, ...args], {
    env: { ...process.env, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (c: Buffer) => {
    err += c.toString();
  });
  let peak = 0;
  const sampler = setInterval(() => {
    peak = Math.max(peak, memoryOf(child.pid).peak);
  }, 250);
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => {
      clearInterval(sampler);
      if (code === 0) resolve({ ms: performance.now() - started, peakRssBytes: peak });
      else reject(new Error(`news ${args.join(' ')} exited ${String(code)}: ${err.trim()}`));
    });
  });
}

/** Current and peak RSS of a live process from /proc (0 once it has gone). */
export function memoryOf(pid: number | undefined): { rss: number; peak: number } {
  try {
    const status = readFileSync(`/proc/${String(pid)}/status`, 'utf8');
    const kb = (key: string): number => Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024;
    return { rss: kb('VmRSS'), peak: kb('VmHWM') };
  } catch {
    return { rss: 0, peak: 0 };
  }
}

/** Builds the one-month corpus and its release with news build's defaults (`--kind sa`, default `--memory`). */
export async function buildOneMonthRelease(
  work: string,
  textBytes: number,
): Promise<{ corpus: string; release: string; corpusRun: RunResult; buildRun: RunResult }> {
  const corpus = `${work}/one-month.jsonl.gz`;
  const release = `${work}/release`;
  const corpusRun = await runNews(['demo-corpus', '--out', corpus, '--bytes', String(textBytes), '--month', '2024-03']);
  const buildRun = await runNews([
    'build',
    '--input',
    corpus,
    '--out',
    release,
    '--index-version',
    'big-open',
    '--force',
  ]);
  return { corpus, release, corpusRun, buildRun };
}

export interface Serving {
  readonly url: string;
  /** From spawning `news serve` to its URL line: worker loaded and listening, gateway listening. */
  readonly startMs: number;
  readonly workerPid: number;
  stop(): Promise<void>;
}

/** Starts `news serve --release DIR --port 0` (memory mode) and waits for its URL. */
export async function serveRelease(release: string): Promise<Serving> {
  const started = performance.now();
  const child = spawn(process.execPath, [NEWS_BIN, 'serve', '--release', release, '--port', '0'], {
    env: { ...process.env, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (c: Buffer) => {
    err += c.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      const m = /at (http:\/\/127\.0\.0\.1:\d+)/.exec(line);
      if (m?.[1] !== undefined) resolve(m[1]);
    });
    void exited.then(() => reject(new Error(`news serve exited before listening: ${err.trim()}`)));
  });
  const startMs = performance.now() - started;
  return {
    url,
    startMs,
    workerPid: workerOf(child),
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The `news worker` child of a `news serve` process (the gateway is the other child). */
function workerOf(serve: ChildProcess): number {
  const children = readFileSync(`/proc/${String(serve.pid)}/task/${String(serve.pid)}/children`, 'utf8')
    .trim()
    .split(/\s+/)
    .map(Number);
  const worker = children.find((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes('worker'));
  if (worker === undefined) throw new Error(`news serve (pid ${String(serve.pid)}) has no worker child`);
  return worker;
}

/** Whole-release count of `phrase` through the gateway's v1 API. */
export async function countOverHttp(url: string, phrase: string): Promise<number> {
  const res = await fetch(`${url}/api/v1/count`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: phrase, index: 'news' }),
  });
  const body = (await res.json()) as { count?: unknown };
  if (res.status !== 200 || typeof body.count !== 'number')
    throw new Error(`count ${JSON.stringify(phrase)}: HTTP ${res.status} ${JSON.stringify(body)}`);
  return body.count;
}

/** Occurrences of each phrase in the corpus articles' text by plain scanning (no index involved). */
export async function scanCorpusCounts(corpus: string, phrases: readonly string[]): Promise<number[]> {
  const needles = phrases.map((p) => Buffer.from(p));
  const counts = phrases.map(() => 0);
  const lines = createInterface({ input: createReadStream(corpus).pipe(createGunzip()), crlfDelay: Infinity });
  for await (const line of lines) {
    if (line === '') continue;
    const text = Buffer.from((JSON.parse(line) as { text: string }).text);
    needles.forEach((n, i) => {
      counts[i] = (counts[i] as number) + bruteCount(text, n);
    });
  }
  return counts;
}
