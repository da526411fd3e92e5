/**
 * `npm run bench:background-check`: what `news worker --verify sizes`' background sha256 check costs (issue 23,
 * item 14): its time per GB of release files, the time `--verify full` takes before listening on the same release,
 * and the latency of count requests over the worker's HTTP route while the check runs against after it ends.
 * Replaces its section of BENCHMARKS.md.
 * Environment: BENCH_CHECK_DIR (/tmp/news-background-check), BENCH_CHECK_BYTES (text bytes of the synthetic corpus, 200e6).
 */
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pino } from 'pino';
import { defaultSyntheticCorpusOptions, writeSyntheticCorpus } from '../src/corpus/index.ts';
import { PROTOCOL_VERSION, RPC_PATH } from '../src/protocol/index.ts';
import { buildRelease, openRelease } from '../src/release/index.ts';
import { startWorker } from '../src/worker/index.ts';
import { writeBenchmarkSection } from './bench-support.ts';
import { machine, percentiles } from './index-bench-measure.ts';

const WORK = process.env['BENCH_CHECK_DIR'] ?? '/tmp/news-background-check';
const TEXT_BYTES = Number(process.env['BENCH_CHECK_BYTES'] ?? '200e6');
const VERSION = 'bench-check';
const log = (msg: string): void => void process.stderr.write(`bench:background-check: ${msg}\n`);
const loadAverage = (): string => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const seconds = (from: bigint): number => Number(process.hrtime.bigint() - from) / 1e9;

/** Latencies (µs) of sequential count RPCs until `until` settles (or `n` of them, when no promise is given). */
async function countLatencies(url: string, until: Promise<unknown> | number): Promise<number[]> {
  let done = false;
  if (typeof until !== 'number')
    void until.finally(() => {
      done = true;
    });
  const body = JSON.stringify({
    protocol: PROTOCOL_VERSION,
    request: { kind: 'count', index: 'news', query: 'der', yearMin: null, yearMax: null },
  });
  const samples: number[] = [];
  while (typeof until === 'number' ? samples.length < until : !done) {
    const t = process.hrtime.bigint();
    const r = await fetch(`${url}${RPC_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    await r.text();
    samples.push(seconds(t) * 1e6);
  }
  return samples;
}

const m = machine();
const loadBefore = loadAverage();
rmSync(WORK, { recursive: true, force: true });
mkdirSync(WORK, { recursive: true });
try {
  const corpus = join(WORK, 'synthetic.jsonl.gz');
  const dir = join(WORK, 'release');
  log(`building a release of ${(TEXT_BYTES / 1e6).toFixed(0)} MB of synthetic text`);
  await writeSyntheticCorpus(corpus, { ...defaultSyntheticCorpusOptions, textBytes: TEXT_BYTES });
  await buildRelease({ inputs: [corpus], out: dir, indexVersion: VERSION });

  let t = process.hrtime.bigint();
  const full = await openRelease(dir, { mode: 'disk', expectedIndexVersion: VERSION, verify: 'full' });
  const fullSeconds = seconds(t);
  full.close();

  t = process.hrtime.bigint();
  const release = await openRelease(dir, { mode: 'disk', expectedIndexVersion: VERSION, verify: 'sizes' });
  const sizesSeconds = seconds(t);
  const worker = await startWorker(
    release,
    { host: '127.0.0.1', port: 0, backgroundCheck: dir },
    pino({ level: 'silent' }),
  );
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const during = await countLatencies(worker.url, worker.backgroundCheck);
  delay.disable();
  const summary = await worker.backgroundCheck;
  if (summary === null) throw new Error('the background check did not run');
  const after = await countLatencies(worker.url, Math.max(during.length, 200));
  await worker.close();

  const gb = summary.bytesTotal / 1e9;
  const [d, a] = [percentiles(during), percentiles(after)];
  const row =
    `| ${(TEXT_BYTES / 1e6).toFixed(0)} MB synthetic text, --kind sa | ${summary.filesTotal} files, ${(summary.bytesTotal / 1e6).toFixed(0)} MB | ` +
    `${sizesSeconds.toFixed(2)} s | ${fullSeconds.toFixed(1)} s (${(fullSeconds / gb).toFixed(1)} s/GB) | **${summary.seconds.toFixed(1)} s (${(summary.seconds / gb).toFixed(1)} s/GB)** | ` +
    `${(d.p50 / 1000).toFixed(2)} / ${(d.p99 / 1000).toFixed(2)} ms (${d.n}) | ${(a.p50 / 1000).toFixed(2)} / ${(a.p99 / 1000).toFixed(2)} ms (${a.n}) | ` +
    `${(delay.percentile(99) / 1e6).toFixed(1)} / ${(delay.max / 1e6).toFixed(1)} ms |`;
  log(row);
  writeBenchmarkSection(
    '## Worker: --verify sizes and its background check (npm run bench:background-check)',
    `## Worker: --verify sizes and its background check (npm run bench:background-check)

Measured ${new Date().toISOString().slice(0, 16)} UTC on ${m.nproc} cores (${m.model}), ${m.ramGiB} GiB RAM, **shared with other jobs**: load average ${loadBefore} at the start, ${loadAverage()} at the end.
A release built from a synthetic corpus (\`news demo-corpus\`), opened with \`mode: 'disk'\`. "open" is \`openRelease\` until it
returns (\`--verify full\` reads every file before the worker listens); "check" is the background check of every served file's
sha256 while the worker serves. Count latency: sequential \`count\` RPCs ("der", whole release) over the worker's HTTP route,
p50 / p99 (number of requests), while the check runs and after it ended. The release was just built, so its files were
mostly in the page cache: from a cold disk, the disk's read rate bounds both the full open and the check.

| release | checked | open, sizes | open, full | background check | count while checking | count after | event-loop delay while checking, p99 / max |
|---|---|---|---|---|---|---|---|
${row}

The check hashes on a thread of its own (\`digest-thread.ts\`), so requests are answered on the main thread meanwhile
and the hash takes the other core; a damaged shard is out of service as soon as its file has been read. "event-loop
delay" is the main thread's (it includes the count requests' own work).
`,
  );
} finally {
  rmSync(WORK, { recursive: true, force: true });
}
