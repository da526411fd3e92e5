/**
 * The research additions measured inside `npm run bench:v2`: estimate, contexts, timeline latencies, and what HTTP
 * compression costs and saves at 16 connections (issue 12's speed section).
 */
import { spawnSync } from 'node:child_process';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { autocannon, type AutocannonResult } from './bench-support.ts';
import { latency, type Client } from './v2-client.ts';
import type { FindResult } from '../src/search-v2/index.ts';

export interface ResearchContext {
  readonly c: Client;
  readonly w: Client;
  readonly gatewayUrl: string;
  readonly base: { readonly index: string; readonly expected_index_version: string };
  /** The shared corpora folder (gzipped JSONL), for the ripgrep comparison. */
  readonly corpora: string;
  toWorker(kind: 'v2_estimate' | 'v2_contexts' | 'v2_timeline', bodies: readonly string[]): string[];
  find(c: Client, query: string): Promise<FindResult>;
}

const ms = (x: number) => x.toFixed(1);

async function both(
  ctx: ResearchContext,
  path: string,
  kind: Parameters<ResearchContext['toWorker']>[0],
  bodies: string[],
  n: number,
) {
  const g = await latency(ctx.c, path, bodies, n, 5);
  const w = await latency(ctx.w, '/rpc', ctx.toWorker(kind, bodies), n, 5);
  console.error(`${path}: gateway p50 ${ms(g.p50)} ms, worker p50 ${ms(w.p50)} ms`);
  return { g, w, cells: [`${ms(g.p50)} / ${ms(g.p99)}`, `${ms(w.p50)} / ${ms(w.p99)}`] };
}

/** Rows for the v2 latency table. */
export async function researchRows(ctx: ResearchContext): Promise<string[][]> {
  const rows: string[][] = [];
  const est = (query: string, extra: object = {}) => [JSON.stringify({ index: 'news', query, ...extra })];
  const the = await both(ctx, '/api/v2/estimate', 'v2_estimate', est('the'), 40);
  rows.push(['estimate "the", all shards, 4,000 sampled ranks, facets', ...the.cells, 'p50 ≤ 150 ms']);
  const ja = await both(ctx, '/api/v2/estimate', 'v2_estimate', est('the', { languages: ['ja'] }), 40);
  rows.push(['estimate "the" + languages ja (sampled)', ...ja.cells, '']);
  const rare = await both(ctx, '/api/v2/estimate', 'v2_estimate', est('Bundesregierung', { languages: ['de'] }), 100);
  rows.push(['estimate "Bundesregierung" + languages de (exact)', ...rare.cells, '']);

  const ctxBodies: string[] = [];
  for (const query of ['the', ' und ', 'の']) {
    const f = await ctx.find(ctx.c, query);
    f.segment_by_shard.forEach(([lo, hi], i) => {
      if (hi - lo >= 1000 && ctxBodies.length < 18)
        ctxBodies.push(
          JSON.stringify({ ...ctx.base, query, shard_id: f.shard_ids[i], rank_from: lo, rank_to: lo + 1000 }),
        );
    });
  }
  const conc = await both(ctx, '/api/v2/contexts', 'v2_contexts', ctxBodies, 100);
  rows.push([
    `contexts, 1,000 ranks, 60 bytes each side (${ctxBodies.length} pages rotated)`,
    ...conc.cells,
    'p50 ≤ 40 ms',
  ]);
  // Matching options: the same queries counted case-sensitively, case-insensitively and as whole words (all shards).
  const queries = ['Bundesregierung', 'oil prices', 'Tokyo', 'market', 'Regierung', 'price'];
  const counts = async (extra: object) =>
    latency(
      ctx.c,
      '/api/v2/count',
      queries.map((q) => JSON.stringify({ index: 'news', query: q, ...extra })),
      120,
      12,
    );
  const cs = await counts({});
  const ci = await counts({ case: 'insensitive' });
  const ww = await counts({ whole_word: true });
  rows.push([`count, ${queries.length} queries rotated: case-sensitive`, `${ms(cs.p50)} / ${ms(cs.p99)}`, '', '']);
  rows.push([
    '… case-insensitive (every spelling under Unicode case folding)',
    `${ms(ci.p50)} / ${ms(ci.p99)}`,
    '',
    `p50 ≤ 3× case-sensitive (${(ci.p50 / cs.p50).toFixed(1)}×)`,
  ]);
  rows.push([
    '… whole word (each of ≤ 10,000 occurrences tested)',
    `${ms(ww.p50)} / ${ms(ww.p99)}`,
    '',
    `p50 ≤ 2× case-sensitive (${(ww.p50 / cs.p50).toFixed(1)}×)`,
  ]);
  // The linear scan a user would try: ripgrep, case-insensitive, fixed strings, through the gzipped corpus files.
  const rg = queries
    .map((q) => {
      const t0 = process.hrtime.bigint();
      const r = spawnSync('rg', ['-z', '-i', '-F', '--count-matches', '--no-filename', q, ctx.corpora], {
        encoding: 'utf8',
      });
      if (r.error)
        throw new Error(`ripgrep is needed for the comparison row (apt-get install ripgrep): ${r.error.message}`);
      return Number(process.hrtime.bigint() - t0) / 1e6;
    })
    .sort((a, b) => a - b);
  rows.push([
    `… the same queries with \`rg -z -i -F --count-matches\` over the gzipped corpora (each query once)`,
    `${ms(rg[Math.floor(rg.length / 2)]!)} (median)`,
    '',
    `${(rg[Math.floor(rg.length / 2)]! / ci.p50).toFixed(0)}× the case-insensitive count`,
  ]);
  const tl = await both(
    ctx,
    '/api/v2/timeline',
    'v2_timeline',
    ['the', 'Bundesregierung', '東京', 'oil prices'].flatMap((q) => est(q)),
    200,
  );
  rows.push(['timeline (per crawl month, 4 queries rotated)', ...tl.cells, '']);
  // The share of articles, which the timeline counts only when asked (`share: true`): its extra cost.
  const share = await both(
    ctx,
    '/api/v2/timeline',
    'v2_timeline',
    ['the', 'Bundesregierung', '東京', 'oil prices'].flatMap((q) => est(q, { share: true })),
    100,
  );
  rows.push(['… with the share of articles (`share: true`)', ...share.cells, '']);
  return rows;
}

async function load(url: string, bodies: readonly string[], acceptEncoding: string | null): Promise<AutocannonResult> {
  let i = 0;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    ...(acceptEncoding === null ? {} : { 'accept-encoding': acceptEncoding }),
  };
  const r = await autocannon({
    url,
    connections: 16,
    duration: 8,
    pipelining: 1,
    requests: [
      {
        method: 'POST',
        path: '/api/v2/documents',
        headers,
        setupRequest: (req) => ({ ...req, body: bodies[i++ % bodies.length]! }),
      },
    ],
  });
  if (r.errors > 0) throw new Error(`documents under load: ${r.errors} connection errors`);
  return r;
}

/** The compression section: encoder settings on one documents page, then the gateway under load with each encoding. */
export async function compressionTable(
  gatewayUrl: string,
  docBodies: readonly string[],
  samplePage: string,
): Promise<string> {
  const raw = Buffer.from(samplePage);
  const time = (f: () => Buffer) => {
    const t0 = process.hrtime.bigint();
    let out = f();
    for (let k = 0; k < 9; k++) out = f();
    return { bytes: out.length, ms: Number(process.hrtime.bigint() - t0) / 1e7 };
  };
  const br = (q: number) => () =>
    brotliCompressSync(raw, {
      params: { [constants.BROTLI_PARAM_QUALITY]: q, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT },
    });
  const enc = [
    ['gzip level 1', time(() => gzipSync(raw, { level: 1 }))],
    ['gzip level 6', time(() => gzipSync(raw, { level: 6 }))],
    ['brotli quality 4', time(br(4))],
    ['brotli quality 6', time(br(6))],
    ['brotli quality 11 (default)', time(br(11))],
  ] as const;
  const encRows = enc.map(
    ([name, r]) =>
      `| ${name} | ${(r.bytes / 1024).toFixed(1)} KiB (${((r.bytes / raw.length) * 100).toFixed(0)}%) | ${r.ms.toFixed(2)} ms |`,
  );

  const runs = [
    ['none', null],
    ['gzip', 'gzip'],
    ['brotli', 'br'],
  ] as const;
  const results: [string, AutocannonResult][] = [];
  for (const [name, accept] of runs) results.push([name, await load(gatewayUrl, docBodies, accept)]);
  const plain = results[0]![1];
  const loadRows = results.map(([name, r]) => {
    const perResponse = r.throughput.average / r.requests.average;
    console.error(
      `compression ${name}: ${Math.round(r.requests.average)} req/s, ${(perResponse / 1024).toFixed(1)} KiB per answer`,
    );
    return `| ${name} | ${Math.round(r.requests.average).toLocaleString('en')} | ${r.latency.p99} ms | ${r.non2xx} | ${(perResponse / 1024).toFixed(1)} KiB | ${((1 - r.requests.average / plain.requests.average) * 100).toFixed(0)}% | ${((1 - perResponse / (plain.throughput.average / plain.requests.average)) * 100).toFixed(0)}% |`;
  });
  return [
    `One documents page of 1,000 ranks (${(raw.length / 1024).toFixed(1)} KiB of JSON), each encoder run 10 times in the benchmark process:`,
    '',
    '| encoder | size | time per page |',
    '|---|---|---|',
    ...encRows,
    '',
    'The gateway under load (autocannon, 16 connections, 8 s each, the same rotated documents pages as above):',
    '',
    '| Accept-Encoding | req/s | p99 | non-2xx | bytes per answer | throughput lost | bytes saved |',
    '|---|---|---|---|---|---|---|',
    ...loadRows,
  ].join('\n');
}
