import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCrawlPeriod } from '../src/corpus/index.ts';
import { get, OPERATOR_ENV, post, type AnyJson } from './gateway-harness.ts';
import { spawnNews, type NewsProcess } from './e2e-processes.ts';
import { corpusFiles } from './support/corpora.ts';
import { SHARED_VERSION, sharedRelease } from './support/shared-release.ts';

/** The real corpora beside the repository (never copied into it). */
const CORPORA = fileURLToPath(new URL('../../../../shared/corpora', import.meta.url));
// The release of every corpus with the builder's defaults, built once per machine and shared with the other suites
// that test it (a folder input names the same files in the same order: corpus-records tests that expansion).
const VERSION = SHARED_VERSION;

interface Article {
  readonly year: string;
  readonly text: Buffer;
}
const byYear = new Map<string, Buffer[]>();
/** Each year's articles joined by 0xFF, as the shards hold them: one indexOf pass per query and year. */
const yearText = new Map<string, Buffer>();
const allArticles: Article[] = [];

function loadCorpora(): void {
  for (const dir of readdirSync(CORPORA, { withFileTypes: true })) {
    if (!dir.isDirectory()) continue;
    for (const f of readdirSync(join(CORPORA, dir.name)).filter((n) => n.endsWith('.jsonl.gz'))) {
      for (const line of gunzipSync(readFileSync(join(CORPORA, dir.name, f)))
        .toString('utf8')
        .split('\n')) {
        if (line.trim() === '') continue;
        const rec = JSON.parse(line) as { text: string; warc_date: string };
        const period = parseCrawlPeriod(rec.warc_date);
        if (typeof period === 'string') continue;
        const a = { year: String(period.year), text: Buffer.from(rec.text, 'utf8') };
        allArticles.push(a);
        byYear.set(a.year, [...(byYear.get(a.year) ?? []), a.text]);
      }
    }
  }
  for (const [year, texts] of byYear) yearText.set(year, Buffer.concat(texts.flatMap((t) => [Buffer.from([0xff]), t])));
}

function bruteCount(query: Buffer, years?: readonly string[]): number {
  let n = 0;
  for (const [year, hay] of yearText) {
    if (years !== undefined && !years.includes(year)) continue;
    for (let i = hay.indexOf(query); i !== -1; i = hay.indexOf(query, i + 1)) n++;
  }
  return n;
}

/** Deterministic queries drawn from the texts (whole characters, 1–24 of them) plus some that occur nowhere. */
function drawQueries(n: number): string[] {
  const out = ['Zürich', '東京', 'the', 'Reuter', ' und ', '\n', 'ニュース', 'qwxz-not-in-any-article', 'Berlin', '€'];
  // mulberry32: 32-bit integer arithmetic (a float LCG loses precision above 2^53 and falls into short cycles).
  let seed = 12345;
  const rnd = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  while (out.length < n) {
    const a = allArticles[Math.floor(rnd() * allArticles.length)]!;
    const chars = [...a.text.toString('utf8')];
    const len = 1 + Math.floor(rnd() * 24);
    const at = Math.floor(rnd() * Math.max(1, chars.length - len));
    out.push(chars.slice(at, at + len).join(''));
  }
  return out;
}

const haveCorpora = existsSync(CORPORA);
let release = '';
let worker: NewsProcess;
let workerUrl = '';
let gateway: NewsProcess;
let gw = '';
const extra: NewsProcess[] = [];

describe.skipIf(!haveCorpora)('end to end on the real corpora (worker and gateway as processes)', () => {
  beforeAll(async () => {
    release = (await sharedRelease({ inputs: corpusFiles() })).dir;
    loadCorpora();
    worker = spawnNews(['worker', '--release', release, '--index-version', VERSION, '--port', '0']);
    workerUrl = await worker.listening;
    gateway = spawnNews(['gateway', '--port', '0'], {
      GATEWAY_INDEX_VERSION: VERSION,
      GATEWAY_WORKER_URL: workerUrl,
      GATEWAY_WORKER_TIMEOUT_MS: '1000',
      ...OPERATOR_ENV,
    });
    gw = await gateway.listening;
  });
  afterAll(async () => {
    for (const p of [...extra, gateway, worker]) await p?.stop();
  });

  it('counts equal brute-force counts of overlapping byte occurrences, over all years and per year', async () => {
    const years = [...yearText.keys()].sort();
    for (const query of drawQueries(80)) {
      const q = Buffer.from(query, 'utf8');
      const r = await post(`${gw}/api/v1/count`, { query, index: 'news' });
      expect(r.status).toBe(200);
      expect(r.body.count, query).toBe(bruteCount(q));
      const year = years[q.length % years.length]!;
      const one = await post(`${gw}/api/v1/count`, {
        query,
        index: 'news',
        year_min: Number(year),
        year_max: Number(year),
      });
      expect(one.body.count, `${query} in ${year}`).toBe(bruteCount(q, [year]));
    }
  });

  it('resolves every rank of every small segment to an article that holds the query at needle_offset', async () => {
    let checked = 0;
    for (const query of drawQueries(200)
      .filter((s) => Buffer.byteLength(s) >= 12)
      .slice(0, 40)) {
      const f = (await post(`${gw}/api/v1/find`, { query, index: 'news' })).body;
      if (f.count > 40) continue;
      expect(f.count).toBe(bruteCount(Buffer.from(query)));
      for (const [s, [lo, hi]] of (f.segment_by_shard as [number, number][]).entries()) {
        for (let rank = lo; rank < hi; rank++) {
          const d: AnyJson = (await post(`${gw}/api/v1/get_doc`, { query, index: 'news', s, rank, max_ctx_len: 200 }))
            .body;
          const text = Buffer.from(d.text, 'utf8');
          expect(text.length).toBe(d.disp_len);
          expect(text.subarray(d.needle_offset, d.needle_offset + Buffer.byteLength(query)).toString('utf8')).toBe(
            query,
          );
          const year: string = f.shard_years[s];
          const article = byYear.get(year)?.find((t) => t.length === d.doc_len && t.includes(text));
          expect(article, `${query} rank ${rank}`).toBeDefined();
          expect(d.doc_ix).toBeLessThan(byYear.get(year)!.length);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(20);
  });

  it('refuses to start a worker with the wrong --index-version, with one line naming both', async () => {
    const p = spawnNews(['worker', '--release', release, '--index-version', 'not-this-one', '--port', '0']);
    const code = await p.exited;
    expect(code).not.toBe(0);
    const line = p
      .stderr()
      .split('\n')
      .filter((l) => l.startsWith('news worker:'));
    expect(line).toHaveLength(1);
    expect(line[0]).toContain(VERSION);
    expect(line[0]).toContain('not-this-one');
  });

  it('fails health on a gateway configured for another release, and passes it on the matching one', async () => {
    const other = spawnNews(['gateway', '--port', '0'], {
      GATEWAY_INDEX_VERSION: 'some-other-release',
      GATEWAY_WORKER_URL: workerUrl,
      ...OPERATOR_ENV,
    });
    extra.push(other);
    const h = await get(`${await other.listening}/api/v2/health`);
    expect(h.status).toBe(503);
    expect(h.body).toMatchObject({
      status: 'unavailable',
      gateway_index_version: 'some-other-release',
      worker_index_version: VERSION,
    });
    const ok = await get(`${gw}/api/v2/health`);
    expect(ok.status).toBe(200);
    expect(ok.body.index_version).toBe(VERSION);
  });

  it('answers 503 while the worker is stopped and recovers when it is restarted', async () => {
    const body = { query: 'Reuter', index: 'news' };
    const before = (await post(`${gw}/api/v1/count`, body)).body.count;
    await worker.stop();
    const down = await post(`${gw}/api/v1/count`, body);
    expect(down.status).toBe(503);
    expect(down.body.code).toBe('worker_unavailable');
    expect((await get(`${gw}/api/v2/health`)).status).toBe(503);
    // Disk mode and size checks: the restart only has to prove the gateway reconnects, quickly.
    worker = spawnNews([
      'worker',
      '--release',
      release,
      '--index-version',
      VERSION,
      '--port',
      new URL(workerUrl).port,
      '--mode',
      'disk',
      '--verify',
      'sizes',
    ]);
    await worker.listening;
    const back = await post(`${gw}/api/v1/count`, body);
    expect(back.status).toBe(200);
    expect(back.body.count).toBe(before);
    expect((await get(`${gw}/api/v2/health`)).status).toBe(200);
  });
});
