/**
 * `npm run bench:search` (issue 27): POST /api/v2/search over HTTP on the real corpora (real worker and
 * gateway processes) next to SQLite FTS5 over the same articles in process, for AND/OR/NOT of two or three phrases.
 * FTS5 matches tokens, the index substrings: the counts differ by design, the latencies are what a user compares.
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { loadavg } from 'node:os';
import { ADMISSION_OPEN_ENV, CORPORA, ensureCorporaRelease, pct, spawnListening } from './bench-support.ts';
import { client, latency } from './v2-client.ts';
import { readJsonlGz } from '../test/support/corpora.ts';
import { openRelease } from '../src/release/index.ts';
import { search } from '../src/search-v2/index.ts';

const RELEASE = '/tmp/news-search-bench/release';
const VERSION = 'search-bench-1';

/** Bytes of every file under `dir` (the release: suffix arrays, texts, metadata stores). */
function treeBytes(dir: string): number {
  return readdirSync(dir, { withFileTypes: true }).reduce(
    (n, d) => n + (d.isDirectory() ? treeBytes(join(dir, d.name)) : statSync(join(dir, d.name)).size),
    0,
  );
}

function corpusFiles(): string[] {
  return readdirSync(CORPORA, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) =>
      readdirSync(join(CORPORA, d.name))
        .filter((f) => f.endsWith('.jsonl.gz'))
        .map((f) => join(CORPORA, d.name, f)),
    )
    .sort();
}

const QUERIES: readonly (readonly [string, string])[] = [
  ['"oil prices" AND "crude"', '"oil prices" AND "crude"'],
  ['"oil prices" NOT "olive oil"', '"oil prices" NOT "olive oil"'],
  ['Merkel AND (Flüchtlinge OR Migration)', 'Merkel AND (Flüchtlinge OR Migration)'],
  ['"interest rates" OR "central bank"', '"interest rates" OR "central bank"'],
  ['Regierung AND Wien NOT Kurz', 'Regierung AND Wien NOT Kurz'],
  ['trade AND deficit AND Japan', 'trade AND deficit AND Japan'],
  // Prefixes and proximity, in each engine's syntax; ours expands through the index and lists the words.
  ['econom*', 'econom*'],
  ['Wirtschaft* AND Regierung', 'Wirtschaft* AND Regierung'],
  ['oil NEAR/5 prices', 'NEAR(oil prices, 5)'],
  // Japanese without spaces: FTS5's unicode61 tokenizer keeps a run of kanji and kana as one token, so it misses
  // words inside it; the index matches the characters wherever they are.
  ['東京 AND 経済', '東京 AND 経済'],
];

const ms = (x: number) => x.toFixed(1);

async function main(): Promise<void> {
  const t0 = performance.now();
  await ensureCorporaRelease(RELEASE, VERSION);
  const buildMs = performance.now() - t0;
  const worker = await spawnListening([
    'worker',
    '--release',
    RELEASE,
    '--index-version',
    VERSION,
    '--port',
    '0',
    '--verify',
    'sizes',
  ]);
  const gateway = await spawnListening(['gateway', '--port', '0'], {
    GATEWAY_INDEX_VERSION: VERSION,
    GATEWAY_WORKER_URL: worker.url,
    GATEWAY_ENVIRONMENT: 'development',
    LOG_LEVEL: 'info',
    ...ADMISSION_OPEN_ENV,
  });
  const c = client(gateway.url);
  const loadBefore = loadavg()[0] ?? 0;
  const rows: string[][] = [];
  try {
    const dir = mkdtempSync(join(tmpdir(), 'fts5-'));
    const db = new Database(join(dir, 'fts.db'));
    const f0 = performance.now();
    db.exec('CREATE VIRTUAL TABLE a USING fts5(text)');
    const insert = db.prepare('INSERT INTO a(text) VALUES (?)');
    db.transaction(() => {
      for (const f of corpusFiles()) for (const r of readJsonlGz(f)) insert.run(String(r['text'] ?? ''));
    })();
    const ftsBuildMs = performance.now() - f0;
    db.close();
    const ftsBytes = statSync(join(dir, 'fts.db')).size;
    const ro = new Database(join(dir, 'fts.db'), { readonly: true });
    const count = ro.prepare('SELECT count(*) AS n FROM a WHERE a MATCH ?');
    // The same engine in this process, next to FTS5 in process: no HTTP, no worker protocol.
    const local = await openRelease(RELEASE, { mode: 'memory', expectedIndexVersion: VERSION, verify: 'sizes' });
    for (const [ours, fts] of QUERIES) {
      const inProcess: number[] = [];
      for (let i = 0; i < 25; i++) {
        const s = performance.now();
        await search(local, { index: 'news', query: ours, page_size: 10 });
        if (i >= 5) inProcess.push(performance.now() - s);
      }
      inProcess.sort((a, b) => a - b);
      const http = await latency(
        c,
        '/api/v2/search',
        [JSON.stringify({ index: 'news', query: ours, page_size: 10 })],
        40,
        5,
      );
      const answer = JSON.parse(
        (await c.post('/api/v2/search', JSON.stringify({ index: 'news', query: ours }))).text,
      ) as { articles: number };
      const times: number[] = [];
      let n = 0;
      for (let i = 0; i < 45; i++) {
        const s = process.hrtime.bigint();
        n = (count.get(fts) as { n: number }).n;
        if (i >= 5) times.push(Number(process.hrtime.bigint() - s) / 1e6);
      }
      times.sort((a, b) => a - b);
      rows.push([
        ours,
        String(answer.articles),
        `${ms(http.p50)} / ${ms(http.p99)}`,
        `${ms(pct(inProcess, 50))} / ${ms(pct(inProcess, 99))}`,
        String(n),
        `${ms(pct(times, 50))} / ${ms(pct(times, 99))}`,
      ]);
    }
    local.close();
    ro.close();
    rmSync(dir, { recursive: true, force: true });
    console.log(
      `load average ${loadBefore.toFixed(1)} → ${(loadavg()[0] ?? 0).toFixed(1)}; release build ${(buildMs / 1000).toFixed(1)} s (0 when cached); FTS5 build ${(ftsBuildMs / 1000).toFixed(1)} s, FTS5 file ${(ftsBytes / 1_048_576).toFixed(1)} MiB; release ${(treeBytes(RELEASE) / 1_048_576).toFixed(1)} MiB`,
    );
    console.log(
      '| query | articles (ours) | search over HTTP p50 / p99 ms | search in process p50 / p99 ms | articles (FTS5, tokens) | FTS5 count(*) in process p50 / p99 ms |',
    );
    console.log('|---|---|---|---|---|---|');
    for (const r of rows) console.log(`| ${r.join(' | ')} |`);
  } finally {
    await c.close();
    gateway.child.kill();
    worker.child.kill();
  }
}

await main();
