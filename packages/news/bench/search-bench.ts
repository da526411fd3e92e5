/**
 * `npm run bench:search` (issue 27): POST /api/v2/search over HTTP on the real corpora (real worker and
 * gateway processes) next to SQLite FTS5 over the same articles in process, for AND/OR/NOT of two or three phrases.
 * FTS5's default tokenizer matches tokens, the index substrings: the counts differ by design, the latencies are what
 * a user compares; its trigram tokenizer matches substrings as we do (search-fts5.ts), its counts should be ours.
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { ADMISSION_OPEN_ENV, ensureCorporaRelease, pct, spawnListening } from './bench-support.ts';
import { client, latency } from './v2-client.ts';
import { concurrentSearchRss, HEAVY_QUERIES } from './search-memory.ts';
import { buildFts5, type Fts5Query } from './search-fts5.ts';
import { openRelease } from '../src/release/index.ts';
import { search } from '../src/search-v2/index.ts';

// BENCH_DIR: where the release is cached (a directory of your own on a shared machine).
const RELEASE = `${process.env['BENCH_DIR'] ?? '/tmp/news-search-bench'}/release`;
const VERSION = 'search-bench-1';

/** Bytes of every file under `dir` (the release: suffix arrays, texts, metadata stores). */
function treeBytes(dir: string): number {
  return readdirSync(dir, { withFileTypes: true }).reduce(
    (n, d) => n + (d.isDirectory() ? treeBytes(join(dir, d.name)) : statSync(join(dir, d.name)).size),
    0,
  );
}

/**
 * Each query in our language, in FTS5's for its default tokenizer, and for its trigram tokenizer (substrings, like
 * ours; no `*`: a trigram prefix is any substring, and `NEAR` counts trigrams, not words).
 */
type BenchQuery = { readonly ours: string; readonly unicode61: string; readonly trigram: Fts5Query };
/** A query written the same in every engine. */
const everywhere = (q: string): BenchQuery => ({ ours: q, unicode61: q, trigram: { match: q } });

const QUERIES: readonly BenchQuery[] = [
  everywhere('"oil prices" AND "crude"'),
  everywhere('"oil prices" NOT "olive oil"'),
  everywhere('Merkel AND (Flüchtlinge OR Migration)'),
  everywhere('"interest rates" OR "central bank"'),
  everywhere('Regierung AND Wien NOT Kurz'),
  everywhere('trade AND deficit AND Japan'),
  // Prefixes and proximity, in each engine's syntax; ours expands through the index and lists the words.
  { ours: 'econom*', unicode61: 'econom*', trigram: { match: 'econom' } },
  {
    ours: 'Wirtschaft* AND Regierung',
    unicode61: 'Wirtschaft* AND Regierung',
    trigram: { match: 'Wirtschaft AND Regierung' },
  },
  { ours: 'oil NEAR/5 prices', unicode61: 'NEAR(oil prices, 5)', trigram: { match: 'NEAR(oil prices, 5)' } },
  // Japanese without spaces: unicode61 keeps a run of kanji and kana as one token, so it misses words inside it;
  // trigram MATCH needs 3 characters a term (0 rows for these), so its exact answer is a GLOB scan of every article.
  { ours: '東京 AND 経済', unicode61: '東京 AND 経済', trigram: { glob: ['*東京*', '*経済*'] } },
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
    // On a loaded shared machine the default 2 s cut heavy answers short (a 503 stops the run).
    GATEWAY_WORKER_TIMEOUT_MS: '30000',
    ...ADMISSION_OPEN_ENV,
  });
  const c = client(gateway.url);
  const loadBefore = loadavg()[0] ?? 0;
  const rows: string[][] = [];
  let memory = '';
  try {
    const dir = mkdtempSync(join(tmpdir(), 'fts5-'));
    const unicode61 = buildFts5(dir, 'unicode61');
    const trigram = buildFts5(dir, 'trigram');
    const timed = (run: () => void): number[] => {
      const times: number[] = [];
      for (let i = 0; i < 45; i++) {
        const s = process.hrtime.bigint();
        run();
        if (i >= 5) times.push(Number(process.hrtime.bigint() - s) / 1e6);
      }
      return times.sort((a, b) => a - b);
    };
    // The same engine in this process, next to FTS5 in process: no HTTP, no worker protocol.
    const local = await openRelease(RELEASE, { mode: 'memory', expectedIndexVersion: VERSION, verify: 'sizes' });
    // Every query a few times first: the engine's code is compiled by then for whichever query is measured first
    // (with only its own 5 warm-up calls, the first query's p50 measured the JIT: 3.6 ms against 1.7 ms warm).
    for (let round = 0; round < 5; round++)
      for (const { ours } of QUERIES) await search(local, { index: 'news', query: ours, page_size: 10 });
    for (const { ours, unicode61: fts, trigram: tri } of QUERIES) {
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
      const n = unicode61.count({ match: fts });
      const times = timed(() => unicode61.count({ match: fts }));
      const same = timed(() => unicode61.sameAnswer({ match: fts }));
      const triSame = timed(() => trigram.sameAnswer(tri));
      const ratio = (ours: number, theirs: number) => (theirs > 0 ? `${(ours / theirs).toFixed(1)}×` : '∞');
      rows.push([
        ours,
        String(answer.articles),
        `${ms(http.p50)} / ${ms(http.p99)}`,
        `${ms(pct(inProcess, 50))} / ${ms(pct(inProcess, 99))}`,
        String(n),
        `${ms(pct(times, 50))} / ${ms(pct(times, 99))}`,
        `${ms(pct(same, 50))} / ${ms(pct(same, 99))}`,
        `${ratio(pct(inProcess, 50), pct(same, 50))} / ${ratio(http.p50, pct(same, 50))}`,
        String(trigram.count(tri)),
        `${ms(pct(triSame, 50))} / ${ms(pct(triSame, 99))}`,
        ratio(pct(inProcess, 50), pct(triSame, 50)),
      ]);
    }
    local.close();
    const shortTerms = trigram.count({ match: '東京 AND 経済' });
    unicode61.close();
    trigram.close();
    // A gateway of its own that lets all 16 through at once and waits for slow answers (the default 2 s would cut
    // the heaviest under load, which measures the timeout rather than the memory).
    const open = await spawnListening(['gateway', '--port', '0'], {
      GATEWAY_INDEX_VERSION: VERSION,
      GATEWAY_WORKER_URL: worker.url,
      GATEWAY_ENVIRONMENT: 'development',
      GATEWAY_WORKER_CONNECTIONS: '20',
      GATEWAY_EXPENSIVE_IN_FLIGHT: String(HEAVY_QUERIES.length),
      GATEWAY_EXPENSIVE_PER_CLIENT: '1000',
      GATEWAY_WORKER_TIMEOUT_MS: '60000',
    });
    try {
      const m = await concurrentSearchRss(open.url, worker.child.pid as number);
      const mib = (b: number) => (b / 1_048_576).toFixed(1);
      memory = `worker RSS over ${m.rounds} rounds of ${HEAVY_QUERIES.length} concurrent heavy searches (${m.requests} requests, statuses ${JSON.stringify(m.statuses)}, ${(m.wallMs / 1000).toFixed(1)} s, slowest ${(m.slowestMs / 1000).toFixed(1)} s): ${mib(m.baseline)} MiB warm → ${mib(m.peak)} MiB peak, growth ${mib(m.peak - m.baseline)} MiB (target ≤ 256 MB = 244.1 MiB)`;
    } finally {
      open.child.kill();
    }
    rmSync(dir, { recursive: true, force: true });
    console.log(
      `load average ${loadBefore.toFixed(1)} → ${(loadavg()[0] ?? 0).toFixed(1)}; release build ${(buildMs / 1000).toFixed(1)} s (0 when cached); ${[unicode61, trigram].map((t) => `FTS5 ${t.tokenizer} build ${(t.buildMs / 1000).toFixed(1)} s, file ${(t.bytes / 1_048_576).toFixed(1)} MiB`).join('; ')}; release ${(treeBytes(RELEASE) / 1_048_576).toFixed(1)} MiB`,
    );
    console.log(
      '| query | articles (ours) | search over HTTP p50 / p99 ms | search in process p50 / p99 ms | articles (FTS5, tokens) | FTS5 count(*) in process p50 / p99 ms | FTS5 same answer (periods, 2 facets, page) p50 / p99 ms | ours ÷ FTS5 same answer, p50 (in process / HTTP) | articles (FTS5 trigram, substrings) | FTS5 trigram same answer p50 / p99 ms | ours ÷ FTS5 trigram, p50 in process |',
    );
    console.log('|---|---|---|---|---|---|---|---|---|---|---|');
    for (const r of rows) console.log(`| ${r.join(' | ')} |`);
    console.log(
      `FTS5 trigram MATCH '東京 AND 経済': ${shortTerms} articles (terms under 3 characters match no row; the row above scans with GLOB)`,
    );
    console.log(memory);
  } finally {
    await c.close();
    gateway.child.kill();
    worker.child.kill();
  }
}

await main();
