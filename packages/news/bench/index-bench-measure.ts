import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { ReleaseIndex } from '../src/release/index.ts';

const NEWS = fileURLToPath(new URL('../bin/news.js', import.meta.url));

export interface ChildBuild {
  summary: {
    documents: number;
    shards: number;
    text_bytes: number;
    index_bytes: number;
    seconds: number;
    mb_per_s: number;
  };
  peakRssBytes: number;
  /** User + system CPU seconds of the build process (all threads). */
  cpuSeconds: number;
}

/** Runs `news build` as its own process under /usr/bin/time -v, so its peak RSS is the build's alone. */
export function buildInChild(
  inputs: string[],
  out: string,
  indexVersion: string,
  extraArgs: readonly string[] = [],
): ChildBuild {
  const r = spawnSync(
    '/usr/bin/time',
    [
      '-v',
      process.execPath,
      NEWS,
      'build',
      '--input',
      ...inputs,
      '--out',
      out,
      '--index-version',
      indexVersion,
      '--force',
      ...extraArgs,
    ],
    { encoding: 'utf8', maxBuffer: 1 << 28, env: { ...process.env, LOG_LEVEL: 'warn' } },
  );
  if (r.status !== 0) throw new Error(`news build failed (${r.status}): ${r.stderr.slice(-2000)}`);
  return parseTimedBuild(r.stdout, r.stderr);
}

/**
 * A build's figures from what `/usr/bin/time -v news build …` printed: the summary line on stdout, peak RSS and
 * CPU seconds on stderr. Also reads a build run by hand (bench:scale's BENCH_SCALE_REUSE).
 */
export function parseTimedBuild(stdout: string, stderr: string): ChildBuild {
  const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr);
  const cpu = (label: string): number =>
    Number(new RegExp(`${label} time \\(seconds\\): ([\\d.]+)`).exec(stderr)?.[1] ?? 0);
  return {
    summary: JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as ChildBuild['summary'],
    peakRssBytes: Number(rss?.[1] ?? 0) * 1024,
    cpuSeconds: cpu('User') + cpu('System'),
  };
}

export function machine(): { nproc: number; model: string; ramGiB: number } {
  const model =
    /model name\s*:\s*(.+)/.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? cpus()[0]?.model ?? 'unknown';
  return { nproc: cpus().length, model, ramGiB: Math.round(totalmem() / 2 ** 30) };
}

export interface Percentiles {
  p50: number;
  p99: number;
  n: number;
}
/** Latencies in microseconds. */
export function percentiles(samples: number[]): Percentiles {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number): number => s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
  return { p50: at(0.5), p99: at(0.99), n: s.length };
}

const now = (): number => Number(process.hrtime.bigint()) / 1000;

/** count, find and locate+window (1000-byte context) latency per query over the whole index (every shard). */
export function measureQueries(
  index: ReleaseIndex,
  queries: Buffer[],
): { count: Percentiles; find: Percentiles; locateWindow: Percentiles; countLargestShard: Percentiles } {
  const count: number[] = [];
  const find: number[] = [];
  const locateWindow: number[] = [];
  const largestShard: number[] = [];
  const largest = [...index.shards].sort((a, b) => b.reader.stats.textBytes - a.reader.stats.textBytes)[0];
  for (let round = 0; round < 2; round++) {
    // Round 0 warms the JIT and the page cache; round 1 is measured.
    for (const q of queries) {
      let t = now();
      let total = 0;
      for (const s of index.shards) total += s.reader.count(q);
      const tc = now() - t;
      if (largest) {
        t = now();
        largest.reader.count(q);
        if (round) largestShard.push(now() - t);
      }
      t = now();
      let hit: { s: (typeof index.shards)[number]; lo: number } | undefined;
      for (const s of index.shards) {
        const r = s.reader.find(q);
        if (!hit && r.hi > r.lo) hit = { s, lo: r.lo };
      }
      const tf = now() - t;
      if (round) {
        count.push(tc);
        find.push(tf);
      }
      if (hit && total > 0) {
        t = now();
        hit.s.reader.locate(hit.lo);
        hit.s.reader.window(hit.lo, q, 1000);
        if (round) locateWindow.push(now() - t);
      }
    }
  }
  return {
    count: percentiles(count),
    find: percentiles(find),
    locateWindow: percentiles(locateWindow),
    countLargestShard: percentiles(largestShard),
  };
}

/** The linear-scan alternative: `rg -a -F -o -c` over the shards' text files (or, glob null, one file), per query (milliseconds). */
export function ripgrepScan(
  shardsDir: string,
  queries: Buffer[],
  glob: string | null = 'text.bin',
): { perQueryMs: Percentiles; totalMatches: number } {
  const times: number[] = [];
  let totalMatches = 0;
  for (const q of queries) {
    const t = now();
    const r = spawnSync(
      'rg',
      [
        '-a',
        '-F',
        '-o',
        '-c',
        '--no-filename',
        ...(glob === null ? [] : ['-g', glob]),
        '-e',
        q.toString('utf8'),
        shardsDir,
      ],
      { encoding: 'utf8', maxBuffer: 1 << 26 },
    );
    times.push((now() - t) / 1000);
    for (const line of r.stdout.split('\n')) totalMatches += Number(line) || 0;
  }
  return { perQueryMs: percentiles(times), totalMatches };
}
