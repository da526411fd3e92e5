/**
 * `npm run bench:metadata`: size and read speed of the per-year metadata stores on the real corpora (issue 24 item 2).
 * Builds two releases with `news build` (the corpora as released, and as one crawl month; the store does not depend on
 * the index kind, so the fast `sa` kind is used), then prints metadata bytes per text byte and per article, and the
 * latency of `get` (random doc_ix, and a scan in doc_ix order as the filters read) and `getMany` of 1,000 (a page of
 * documents: random doc_ix, and consecutive), through the store as the worker opens it.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { openMetadataStore } from '../src/metadata/index.ts';
import { CORPORA } from './bench-support.ts';
import { oneMonthCorpus } from './component-sizes.ts';
import { buildInChild, machine, percentiles } from './index-bench-measure.ts';

const WORK = process.env['BENCH_DIR'] ?? '/tmp/news-bench-metadata';
const now = (): number => Number(process.hrtime.bigint()) / 1000;
const log = (msg: string): void => void process.stderr.write(`bench: ${msg}\n`);

/** Deterministic doc_ix sequence (xorshift), so before/after runs read the same rows. */
function randomIxs(n: number, count: number, seed: number): number[] {
  let x = seed;
  return Array.from({ length: n }, () => {
    x ^= x << 13; x ^= x >>> 17; x ^= x << 5;
    return (x >>> 0) % count;
  });
}

function measureStore(path: string, year: string): { docs: number; get: number; scan: number; pageRandom: number; pageRun: number } {
  const store = openMetadataStore(path, { year });
  const count = store.docCount;
  const time = (f: () => void): number => { const t = now(); f(); return now() - t; };
  const gets = randomIxs(5000, count, 7).map((d) => time(() => store.get(d)));
  const scanFrom = now();
  for (let d = 0; d < count; d++) store.get(d);
  const scan = (now() - scanFrom) / count;
  const pageSize = Math.min(1000, count);
  const pageRandom = Array.from({ length: 20 }, (_, i) => randomIxs(pageSize, count, 11 + i)).map((ixs) => time(() => store.getMany(ixs)));
  const pageRun = Array.from({ length: 20 }, (_, i) => {
    const from = Math.floor(((count - pageSize) * i) / 20);
    return time(() => store.getMany(Array.from({ length: pageSize }, (_, k) => from + k)));
  });
  store.close();
  return { docs: count, get: percentiles(gets).p50, scan, pageRandom: percentiles(pageRandom).p50, pageRun: percentiles(pageRun).p50 };
}

async function main(): Promise<void> {
  const corpora = readdirSync(CORPORA, { withFileTypes: true }).filter((e) => e.isDirectory())
    .flatMap((d) => readdirSync(join(CORPORA, d.name)).filter((f) => f.endsWith('.jsonl.gz')).map((f) => join(CORPORA, d.name, f)));
  const oneMonth = join(WORK, 'one-month.jsonl.gz');
  await oneMonthCorpus(corpora, oneMonth, '2024-03');
  const m = machine();
  console.log(`Machine: ${m.nproc} × ${m.model}, ${m.ramGiB} GiB; load average at start ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}\n`);
  console.log('| data set | articles | metadata bytes | B/B | B/article | get p50 (random) | get per doc (scan) | getMany(1,000) p50 random | getMany(1,000) p50 consecutive |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const [name, inputs] of [['real corpora as released', corpora], ['real corpora as one crawl month', [oneMonth]]] as const) {
    const out = join(WORK, name.replaceAll(' ', '-'));
    log(`building ${name}`);
    buildInChild([...inputs], out, 'bench-metadata', ['--kind', 'sa']);
    const dir = join(out, 'indexes', 'news', 'metadata');
    const manifest = JSON.parse(readFileSync(join(out, 'index-manifest.json'), 'utf8')) as { indexes: { shards: { text_bytes: number }[] }[] };
    const textBytes = manifest.indexes.flatMap((ix) => ix.shards).reduce((s, sh) => s + sh.text_bytes, 0);
    const stores = readdirSync(dir).filter((f) => f.endsWith('.sqlite'));
    const bytes = stores.reduce((s, f) => s + statSync(join(dir, f)).size, 0);
    // Latency on the largest year (the one-month release has one store).
    const largest = stores.map((f) => ({ f, size: statSync(join(dir, f)).size })).sort((a, b) => b.size - a.size)[0]!.f;
    const r = measureStore(join(dir, largest), largest.replace('.sqlite', ''));
    const docs = stores.reduce((s, f) => s + openCount(join(dir, f), f.replace('.sqlite', '')), 0);
    console.log(`| ${name} (latency: ${largest}, ${r.docs} articles) | ${docs} | ${bytes} | ${(bytes / textBytes).toFixed(4)} | ${(bytes / docs).toFixed(1)} | ${r.get.toFixed(1)} µs | ${r.scan.toFixed(2)} µs | ${(r.pageRandom / 1000).toFixed(2)} ms | ${(r.pageRun / 1000).toFixed(2)} ms |`);
  }
}

function openCount(path: string, year: string): number {
  const s = openMetadataStore(path, { year });
  const n = s.docCount;
  s.close();
  return n;
}

await main();
