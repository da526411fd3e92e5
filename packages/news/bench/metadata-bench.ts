/**
 * `npm run bench:metadata`: size and read speed of the per-year metadata stores on the real corpora (issue 24 item 2).
 * Builds two releases with `news build` (the corpora as released, and as one crawl month; the store does not depend on
 * the index kind, so the fast `sa` kind is used), then prints metadata bytes per text byte and per article, and the
 * latency of `get` (random doc_ix, and a scan in doc_ix order), of `filterFields` in such a scan (what a filtered
 * search reads per matching document) and of `getMany` of 1,000 (a page of
 * documents: random doc_ix, and consecutive), through the store as the worker opens it. Every year's store is also
 * written in format 2 (the format before) from the same articles and measured beside it.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { ArticleMetadata } from '../src/metadata/types.ts';
import { openMetadataStore } from '../src/metadata/index.ts';
import { writeStoreV2 } from '../src/metadata/v2-store.fixture.ts';
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
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) % count;
  });
}

function measureStore(path: string, year: string): Omit<Measured, 'bytes'> {
  const store = openMetadataStore(path, { year });
  const count = store.docCount;
  const time = (f: () => void): number => {
    const t = now();
    f();
    return now() - t;
  };
  const gets = randomIxs(5000, count, 7).map((d) => time(() => store.get(d)));
  const scanFrom = now();
  for (let d = 0; d < count; d++) store.get(d);
  const scan = (now() - scanFrom) / count;
  // What a filtered search reads per matching document (search-v2/query/search.ts).
  const filterFrom = now();
  for (let d = 0; d < count; d++) store.filterFields(d);
  const filterScan = (now() - filterFrom) / count;
  const pageSize = Math.min(1000, count);
  const pageRandom = Array.from({ length: 20 }, (_, i) => randomIxs(pageSize, count, 11 + i)).map((ixs) =>
    time(() => store.getMany(ixs)),
  );
  const pageRun = Array.from({ length: 20 }, (_, i) => {
    const from = Math.floor(((count - pageSize) * i) / 20);
    return time(() => store.getMany(Array.from({ length: pageSize }, (_, k) => from + k)));
  });
  store.close();
  return {
    get: percentiles(gets).p50,
    scan,
    filterScan,
    pageRandom: percentiles(pageRandom).p50,
    pageRun: percentiles(pageRun).p50,
  };
}

interface Measured {
  bytes: number;
  get: number;
  scan: number;
  filterScan: number;
  pageRandom: number;
  pageRun: number;
}

async function main(): Promise<void> {
  const corpora = readdirSync(CORPORA, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .flatMap((d) =>
      readdirSync(join(CORPORA, d.name))
        .filter((f) => f.endsWith('.jsonl.gz'))
        .map((f) => join(CORPORA, d.name, f)),
    );
  const oneMonth = join(WORK, 'one-month.jsonl.gz');
  await oneMonthCorpus(corpora, oneMonth, '2024-03');
  const m = machine();
  const rows: string[] = [];
  for (const [name, inputs] of [
    ['real corpora as released', corpora],
    ['real corpora as one crawl month', [oneMonth]],
  ] as const) {
    const out = join(WORK, name.replaceAll(' ', '-'));
    log(`building ${name}`);
    buildInChild([...inputs], out, 'bench-metadata', ['--kind', 'sa']);
    const dir = join(out, 'indexes', 'news', 'metadata');
    const manifest = JSON.parse(readFileSync(join(out, 'index-manifest.json'), 'utf8')) as {
      indexes: { shards: { text_bytes: number }[] }[];
    };
    const textBytes = manifest.indexes.flatMap((ix) => ix.shards).reduce((s, sh) => s + sh.text_bytes, 0);
    const years = readdirSync(dir)
      .filter((f) => f.endsWith('.sqlite'))
      .map((f) => f.replace('.sqlite', ''));
    // The same articles as format 2 (the format before), so both are measured in one run on the same load.
    const v2Dir = join(WORK, `${name.replaceAll(' ', '-')}-v2`);
    mkdirSync(v2Dir, { recursive: true });
    let docs = 0;
    for (const year of years) {
      const store = openMetadataStore(join(dir, `${year}.sqlite`), { year });
      const all = Array.from({ length: store.docCount }, (_, i) => i);
      rmSync(join(v2Dir, `${year}.sqlite`), { force: true });
      writeStoreV2(join(v2Dir, `${year}.sqlite`), store.getMany(all) as ArticleMetadata[], year, 'bench-metadata');
      docs += store.docCount;
      store.close();
    }
    const bytesIn = (d: string) => years.reduce((s, y) => s + statSync(join(d, `${y}.sqlite`)).size, 0);
    // Latency on the largest year (the one-month release has one store), rounds alternating between the formats.
    const largest = years
      .map((y) => ({ y, size: statSync(join(dir, `${y}.sqlite`)).size }))
      .sort((a, b) => b.size - a.size)[0]!.y;
    const rounds: Record<'2' | '3', Measured[]> = { 2: [], 3: [] };
    for (let round = 0; round < 3; round++) {
      for (const [format, d] of [
        ['2', v2Dir],
        ['3', dir],
      ] as const)
        rounds[format].push({ bytes: bytesIn(d), ...measureStore(join(d, `${largest}.sqlite`), largest) });
    }
    for (const format of ['2', '3'] as const) {
      const mid = (k: keyof Measured) => rounds[format].map((r) => r[k]).sort((a, b) => a - b)[1]!;
      rows.push(
        `| ${name} | ${format} | ${docs} | ${mid('bytes')} | ${(mid('bytes') / textBytes).toFixed(4)} | ${(mid('bytes') / docs).toFixed(1)} | ${mid('get').toFixed(1)} µs | ${mid('scan').toFixed(2)} µs | ${mid('filterScan').toFixed(2)} µs | ${(mid('pageRandom') / 1000).toFixed(2)} ms | ${(mid('pageRun') / 1000).toFixed(2)} ms |`,
      );
    }
  }
  console.log(
    `Machine: ${m.nproc} × ${m.model}, ${m.ramGiB} GiB; load average after the run ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}. Latency on the largest year's store, median of 3 rounds alternating between the formats.\n`,
  );
  console.log(
    '| data set | store format | articles | metadata bytes | B/B | B/article | get p50 (random) | get per doc (scan) | filterFields per doc (scan) | getMany(1,000) p50 random | getMany(1,000) p50 consecutive |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of rows) console.log(r);
}

await main();
