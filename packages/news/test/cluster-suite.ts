/**
 * The scale-out suite (issue 14), run on loopback and across network namespaces: three workers with different
 * shard subsets (one subset on two replicas) behind one gateway, against one worker holding everything and a
 * brute-force scan of the real corpora. Workers are real `news worker` processes (so they can be SIGKILLed);
 * gateways run in this process.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRelease } from '../src/release/index.ts';
import { startWorker, type RunningServer } from '../src/worker/index.ts';
import { parseGatewayConfig, startGateway, type RunningGateway } from '../src/gateway/index.ts';
import { spawnNews, type NewsProcess } from './e2e-processes.ts';
import { buildFixtureRelease, get, OPERATOR_ENV, post, silentLogger, type AnyJson } from './gateway-harness.ts';
import { bruteOccurrences, buildV2Release, scanRelease, type BuiltRelease, type ScannedArticle } from './v2-support.ts';
import { CORPORA } from './v2-support.ts';
import { bruteExactStories, storiesByPeriod } from './support/story-brute.ts';
import type { Hosts } from './cluster-hosts.ts';

const VERSION = 'cluster-1';
// A generous request budget: the machine running the suite is shared, and a timeout would make both sides 503.
/** Worker subsets: the 2016 crawl month is split into three parts across two workers; 2025–2026 has two replicas. */
export const SUBSETS = ['2016-05.p001,2016-05.p002', '2016-05.p003,2023..2024', '2025..2026', '2025..2026'] as const;
const QUERIES = ['die', 'Berlin', 'the', ' und ', 'e', 'Trump', '2025', 'zzqqx'];

// Planted syndicated copies (made-up words, no third-party text): one wire story in months held by different workers
// (2023–2024 on one, 2025–2026 on another), two edited copies (1 word in 20) and one other story, so stories span
// workers; the real German and multilingual corpora hold no repeated text.
const plantedWords = (seed: number, n: number): string[] =>
  Array.from({ length: n }, (_, i) => `q${(seed * 7919 + i * 104729) % 99991}`);
const WIRE = ['Quorvexa', ...plantedWords(1, 79)];
const PLANTED = [
  ['2023-04-20T10:00:00', WIRE],
  ['2024-08-02T10:00:00', WIRE.map((w, i) => (i % 20 === 7 ? `edit${i}` : w))],
  ['2024-12-02T10:00:00', WIRE],
  ['2025-01-05T10:00:00', WIRE],
  ['2025-02-05T10:00:00', ['Quorvexa', ...plantedWords(2, 79)]],
  ['2025-06-05T10:00:00', WIRE.map((w, i) => (i % 20 === 11 ? `edit${i}` : w))],
  ['2026-01-05T10:00:00', WIRE],
].map(([warc, words], i) => ({
  text: `${(words as string[]).join(' ')}.`,
  warc_date: warc,
  url: `https://planted${i}.synthetic.example/a`,
  hostname: `planted${i}.synthetic.example`,
  title: `PLANTED ${i}`,
}));

interface Worker {
  proc: NewsProcess;
  url: string;
  port: number;
}

async function startWorkerOn(
  hosts: Hosts,
  i: number,
  release: BuiltRelease,
  spec: string | null,
  port = 0,
): Promise<Worker> {
  const args = [
    'worker',
    '--release',
    release.dir,
    '--index-version',
    release.version,
    '--host',
    hosts.address(i),
    '--port',
    String(port),
    '--verify',
    'sizes',
  ];
  const proc = spawnNews(spec === null ? args : [...args, '--shards', spec], {}, hosts.prefix(i));
  const url = await proc.listening;
  return { proc, url, port: Number(new URL(url).port) };
}

async function gatewayFor(env: Record<string, string>): Promise<RunningGateway> {
  const config = parseGatewayConfig({
    GATEWAY_INDEX_VERSION: VERSION,
    GATEWAY_PORT: '0',
    GATEWAY_WORKER_TIMEOUT_MS: '10000',
    ...OPERATOR_ENV,
    ...env,
  });
  return startGateway(config, silentLogger);
}

const withoutLatency = (body: AnyJson): AnyJson => {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const { latency_ms: _l, ...rest } = body as Record<string, unknown>;
  return rest;
};

async function waitFor<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>): Promise<T> {
  const until = performance.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (performance.now() > until) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export function defineClusterSuite(label: string, makeHosts: () => Hosts, addressing: 'urls' | 'topology'): void {
  describe(label, () => {
    let hosts: Hosts;
    let release: BuiltRelease;
    let articles: ScannedArticle[];
    let workers: Worker[] = [];
    let single: { worker: RunningServer; gateway: RunningGateway };
    let cluster: RunningGateway;
    const extra: { close(): Promise<unknown> }[] = [];

    beforeAll(async () => {
      hosts = makeHosts();
      // The German and multilingual corpora: 36 monthly shards over 2016 and 2023–2026, the 2016 month in 3 parts.
      release = await buildV2Release(VERSION, {
        inputs: [
          join(CORPORA, 'fundus-testdata-multi/fundus-testdata-multi.jsonl.gz'),
          join(CORPORA, '10kgnad-de/10kgnad-de.jsonl.gz'),
        ],
        records: PLANTED,
        partBytes: 1_000_000,
      });
      articles = await scanRelease(release);
      workers = await Promise.all(SUBSETS.map((spec, i) => startWorkerOn(hosts, i, release, spec)));
      const whole = await openRelease(release.dir, { mode: 'memory', expectedIndexVersion: VERSION, verify: 'sizes' });
      const worker = await startWorker(whole, { host: '127.0.0.1', port: 0 }, silentLogger);
      single = { worker, gateway: await gatewayFor({ GATEWAY_WORKER_URL: worker.url }) };
      let env: Record<string, string>;
      if (addressing === 'urls') env = { GATEWAY_WORKER_URL: workers.map((w) => w.url).join(',') };
      else {
        const file = join(release.dir, '..', 'topology.json');
        await writeFile(
          file,
          JSON.stringify({ topology_format: 1, workers: workers.map((w, i) => ({ url: w.url, shards: SUBSETS[i] })) }),
        );
        env = { GATEWAY_TOPOLOGY: file };
      }
      cluster = await gatewayFor(env);
      await waitFor('cluster healthy', 10_000, async () =>
        (await get(`${cluster.url}/api/v2/health`)).status === 200 ? true : undefined,
      );
    });

    afterAll(async () => {
      await cluster?.close();
      await single?.gateway.close();
      await single?.worker.close();
      for (const e of extra) await e.close();
      await Promise.all(workers.map((w) => w.proc.stop()));
      hosts?.teardown();
      await release?.cleanup();
    });

    /** The cluster's answer equals the single worker's (status and body, latency aside). */
    async function same(path: string, body?: unknown): Promise<AnyJson> {
      const ask = (url: string) => (body === undefined ? get(`${url}${path}`) : post(`${url}${path}`, body));
      const [a, b] = await Promise.all([ask(cluster.url), ask(single.gateway.url)]);
      // info's python_example names the gateway it was asked through.
      const answer = (r: { body: AnyJson }, url: string) =>
        JSON.parse(JSON.stringify(withoutLatency(r.body)).replaceAll(url, 'GATEWAY')) as AnyJson;
      expect({ path, body, status: a.status, answer: answer(a, cluster.url) }).toEqual({
        path,
        body,
        status: b.status,
        answer: answer(b, single.gateway.url),
      });
      return a.body;
    }

    it('each worker serves exactly its --shards and reports them; health lists every replica', async () => {
      const health = (await get(`${cluster.url}/api/v2/health`)).body as AnyJson;
      expect(health.status).toBe('ok');
      expect(health.shards).toHaveLength(36);
      expect(health.workers.map((w: AnyJson) => [w.status, w.shards.length])).toEqual([
        ['up', 2],
        ['up', 18],
        ['up', 16],
        ['up', 16],
      ]);
      expect(health.workers[0].shards).toEqual(['2016-05.p001', '2016-05.p002']);
    });

    it('a worker whose --shards the release does not have refuses to start with one clear line', async () => {
      for (const spec of ['2019-01', '2016-05.p001,2030..2031', '2016-05..2016-04']) {
        const proc = spawnNews(
          ['worker', '--release', release.dir, '--index-version', VERSION, '--port', '0', '--shards', spec],
          {},
          hosts.prefix(0),
        );
        const code = await proc.exited;
        const lines = proc.stderr().trim().split('\n');
        expect({ spec, code, lines: lines.length }).toEqual({ spec, code: 1, lines: 1 });
        expect(lines[0]).toMatch(
          spec.includes('..2016-04')
            ? /ends before it starts/
            : /matches no shard of the release \(it has 36 shards, 2016-05\.p001 to 2026-08\)/,
        );
      }
    });

    it('counts equal the single worker and brute force on the real corpora, for every year range', async () => {
      for (const query of QUERIES) {
        const q = Buffer.from(query);
        for (const [lo, hi] of [
          [null, null],
          [2016, 2016],
          [2024, 2025],
          [2026, 2026],
          [2030, 2031],
        ] as const) {
          const body = await same('/api/v1/count', { query, index: 'news', year_min: lo, year_max: hi });
          const brute = articles
            .filter((a) => Number(a.year) >= (lo ?? 0) && Number(a.year) <= (hi ?? 9999))
            .reduce((n, a) => n + bruteOccurrences(a.text, q), 0);
          expect(body.count, `${query} ${lo}..${hi}`).toBe(brute);
          await same('/api/v2/count', { query, index: 'news', year_min: lo, year_max: hi });
        }
      }
    });

    it('find keeps chronological order and alignment; get_doc resolves every shard through s', async () => {
      for (const query of ['die', 'Berlin', 'Trump']) {
        const found = await same('/api/v1/find', { query, index: 'news' });
        await same('/api/v1/find', { query, index: 'news', year_min: 2016, year_max: 2024 });
        const v2 = await same('/api/v2/find', { query, index: 'news' });
        expect(v2.shard_ids).toEqual([...v2.shard_ids].sort());
        for (const [s, [lo, hi]] of (found.segment_by_shard as [number, number][]).entries()) {
          if (hi > lo) await same('/api/v1/get_doc', { query, index: 'news', s, rank: lo, max_ctx_len: 80 });
        }
        await same('/api/v1/get_doc', { query, index: 'news', s: 99, rank: 0 });
        await same('/api/v1/get_doc', { query, index: 'news', s: 1, rank: 0 });
      }
      await same('/api/v1/find', { query: 'die', index: 'other' });
      await same('/api/v2/find', { query: 'die', index: 'news', year_min: 2026, year_max: 2016 });
    });

    it('every v2 endpoint answers as one worker: continuations, documents paging, metadata, timeline, contexts, estimate, info', async () => {
      const cont = { index: 'news', expected_index_version: VERSION };
      const found = await same('/api/v2/find', { query: 'die', index: 'news' });
      for (const [i, [lo, hi]] of (found.segment_by_shard as [number, number][]).entries()) {
        const shard_id = found.shard_ids[i];
        if (hi === lo) continue;
        await same('/api/v2/get_doc', { ...cont, query: 'die', shard_id, rank: lo });
        await same('/api/v2/occurrences', {
          ...cont,
          query: 'die',
          shard_id,
          rank_from: lo,
          rank_to: Math.min(hi, lo + 300),
        });
        await same('/api/v2/contexts', {
          ...cont,
          query: 'die',
          shard_id,
          rank_from: lo,
          rank_to: Math.min(hi, lo + 50),
        });
        // Documents paging: every page of the shard's interval.
        for (let from = lo; from < hi; from += 1000) {
          await same('/api/v2/documents', {
            ...cont,
            query: 'die',
            shard_id,
            rank_from: from,
            rank_to: Math.min(hi, from + 1000),
            languages: ['de'],
          });
        }
      }
      await same('/api/v2/get_doc', { ...cont, query: 'die', shard_id: '2019-01', rank: 0 });
      await same('/api/v2/get_doc', {
        ...cont,
        expected_index_version: 'stale',
        query: 'die',
        shard_id: '2016-05.p001',
        rank: 0,
      });
      await same('/api/v2/timeline', { query: 'die', index: 'news' });
      await same('/api/v2/timeline', {
        query: 'Berlin',
        index: 'news',
        year_min: 2016,
        year_max: 2025,
        whole_word: true,
        share: true,
      });
      await same('/api/v2/info');
      const refs = [
        { year: '2025', doc_ix: 3 },
        { year: '2016', doc_ix: 900 },
        { year: '2016', doc_ix: 1 },
        { year: '2024', doc_ix: 0 },
        { year: '2026', doc_ix: 5 },
      ];
      await same('/api/v2/metadata', { ...cont, documents: refs });
      await same('/api/v2/metadata', {
        ...cont,
        documents: [...refs, { year: '2024', doc_ix: 100_000 }, { year: '2016', doc_ix: 5000 }],
      });
      await same('/api/v2/metadata', {
        ...cont,
        documents: [...refs, { year: '2019', doc_ix: 1 }, { year: '2016', doc_ix: 5000 }],
      });
      for (const body of [
        { query: 'die', index: 'news' },
        { query: 'e', index: 'news' },
        { query: 'die', index: 'news', case: 'insensitive', whole_word: true },
        { query: 'the', index: 'news', languages: ['en'], seed: 7, sample_size: 500 },
        { query: 'die', index: 'news', year_min: 2016, year_max: 2016 },
        { query: 'e', index: 'news', year_min: 2024, year_max: 2026, topics: ['politics'] },
        { query: '', index: 'news' },
      ])
        await same('/api/v2/estimate', body);
      await same('/api/v1/info');
    });

    it('search (the query language) answers as one worker: article totals, periods, expansions and the first page add up exactly', async () => {
      for (const body of [
        { query: 'die AND Berlin', index: 'news', page_size: 20 },
        { query: '"the" NOT Trump OR Merkel', index: 'news' },
        { query: 'Regierung NEAR/5 Berlin', index: 'news', case: 'insensitive' },
        { query: 'Bundes*', index: 'news', year_min: 2016, year_max: 2025 },
        { query: 'die (Berlin OR Wien)', index: 'news', languages: ['de'], whole_word: true },
        { query: 'NOT die', index: 'news' },
        { query: 'die AND (Berlin', index: 'news' },
        { query: '"die * Regierung" OR "the * of"', index: 'news', page_size: 5 },
        { query: 'title:die OR title:the', index: 'news', page_size: 5 },
        { query: 'title:Trump AND Trump NOT title:Biden', index: 'news' },
        { query: 'title:die NEAR/3 Berlin', index: 'news' },
      ]) {
        const answer = await same('/api/v2/search', body);
        if (body.query === 'die AND Berlin') {
          expect(answer.articles).toBeGreaterThan(20);
          // The next page, from the cursor of the merged first page, answers as one worker too.
          const next = await same('/api/v2/search', { ...body, cursor: answer.next_cursor });
          expect(next.page[0]).not.toEqual(answer.page[0]);
          // The JSON form of the same query gives the same articles.
          const tree = await same('/api/v2/search', { index: 'news', page_size: 20, query_tree: answer.query_tree });
          expect(tree).toMatchObject({ articles: answer.articles });
          for (const bad of [{ type: 'x' }, 5, { type: 'and', children: [] }]) {
            expect(await same('/api/v2/search', { index: 'news', query_tree: bad })).toMatchObject({
              code: 'invalid_query',
            });
          }
        }
        if (body.query === 'die AND (Berlin')
          expect(answer).toMatchObject({
            code: 'invalid_query',
            position: 9,
            detail: 'missing closing parenthesis for the one at position 9',
          });
        if (body.query === 'NOT die' || body.query === 'title:die NEAR/3 Berlin')
          expect(answer.code).toBe('invalid_query');
        if (body.query === 'title:die OR title:the') {
          // The headline index against the titles of the scanned articles (the whole 2016 month has none).
          expect(answer.articles).toBe(articles.filter((a) => /die|the/.test(a.meta.title ?? '')).length);
          expect(answer.articles).toBeGreaterThan(0);
        }
        if (answer.articles !== undefined)
          expect(answer.by_shard.reduce((n: number, s: { articles: number }) => n + s.articles, 0)).toBe(
            answer.articles,
          );
      }
    });

    it('dedupe: timeline and estimate count stories across workers as one worker, equal to grouping equal texts', async () => {
      for (const query of ['Quorvexa', 'Berlin', 'Trump', 'Regierung', 'zzqqx']) {
        for (const [yearMin, yearMax] of [
          [null, null],
          [2016, 2016],
          [2023, 2026],
        ] as const) {
          const sel = { index: 'news', query, year_min: yearMin, year_max: yearMax };
          const truth = bruteExactStories(articles, query, yearMin, yearMax);
          const timeline = await same('/api/v2/timeline', { ...sel, dedupe: 'exact' });
          expect(timeline.total_stories).toBe(truth.total);
          // Within the story bound over all workers' candidates (as one worker decides): exact.
          expect(timeline).toMatchObject({ stories_exact: true });
          expect(storiesByPeriod(timeline.periods)).toEqual(truth.perPeriod);
          expect(JSON.stringify(timeline)).not.toMatch(/spanning_stories/);
          const estimate = await same('/api/v2/estimate', { ...sel, dedupe: 'exact' });
          if (estimate.mode === 'exact') {
            expect(estimate.matching_stories).toEqual({ value: truth.total, low: truth.total, high: truth.total });
            expect(storiesByPeriod(estimate.periods)).toEqual(truth.perPeriod);
          } else {
            // Past 20,000 occurrences: stories estimated from the sample (seed 1), the interval holding the truth.
            expect(estimate.matching_stories.low).toBeLessThanOrEqual(truth.total);
            expect(estimate.matching_stories.high).toBeGreaterThanOrEqual(truth.total);
          }
          // near: no brute force here (planted copies are checked elsewhere), but one worker's answer all the same.
          const near = await same('/api/v2/timeline', { ...sel, dedupe: 'near' });
          expect(near.total_stories).toBeLessThanOrEqual(truth.total);
          if (query === 'Quorvexa' && yearMin === null) {
            // 7 planted articles: the wire story with its 3 exact copies and 2 edited ones, and one other story.
            expect(truth).toEqual({ total: 4, perPeriod: { '2023-04': 1, '2024-08': 1, '2025-02': 1, '2025-06': 1 } });
            expect(storiesByPeriod(near.periods)).toEqual({ '2023-04': 1, '2025-02': 1 });
          }
        }
      }
    });

    it('dedupe past the exact bound: estimate samples stories across workers as one worker, the interval holding the truth', async () => {
      const truth = bruteExactStories(articles, 'en', null, null).total;
      for (const dedupe of ['exact', 'near'] as const) {
        // The sampled stories' copies are counted on every worker (the estimate's fourth step), then merged.
        const e = await same('/api/v2/estimate', { index: 'news', query: 'en', dedupe, sample_size: 2000 });
        expect(e.mode).toBe('sampled');
        expect(e.matching_stories.low).toBeLessThanOrEqual(e.matching_stories.value);
        expect(e.matching_stories.value).toBeLessThanOrEqual(e.matching_stories.high);
        if (dedupe === 'exact') {
          expect(e.matching_stories.low).toBeLessThanOrEqual(truth);
          expect(e.matching_stories.high).toBeGreaterThanOrEqual(truth);
        } else expect(e.matching_stories.value).toBeLessThanOrEqual(e.matching_articles.high);
      }
    });

    it('dedupe: search counts and pages stories across workers that split the years as one worker, equal to grouping equal texts', async () => {
      for (const query of ['Quorvexa', 'Berlin', 'Regierung', 'zzqqx']) {
        for (const [yearMin, yearMax] of [
          [null, null],
          [2023, 2026],
        ] as const) {
          const sel = { index: 'news', query, year_min: yearMin, year_max: yearMax };
          const truth = bruteExactStories(articles, query, yearMin, yearMax);
          for (const dedupe of ['exact', 'near'] as const) {
            // Pages of one story for the planted wire story, so its copies on several workers fall on page edges.
            const listed: string[] = [];
            let cursor: string | null = null;
            let copies = 0;
            let answer: AnyJson;
            do {
              answer = await same('/api/v2/search', {
                ...sel,
                dedupe,
                page_size: query === 'Quorvexa' ? 1 : 40,
                cursor,
              });
              if (answer.code !== undefined) break;
              for (const a of answer.page as { shard_id: string; doc_ix: number; copies: number }[]) {
                listed.push(`${a.shard_id}/${a.doc_ix}`);
                copies += a.copies;
              }
              cursor = answer.next_cursor as string | null;
            } while (cursor !== null);
            if (answer.code !== undefined) {
              expect(answer.code).toBe('query_too_expensive');
              continue;
            }
            expect(JSON.stringify(answer)).not.toMatch(/spanning_stories/);
            // Every story listed once, and its copies add up to the matching articles.
            expect(new Set(listed).size).toBe(listed.length);
            expect(listed).toHaveLength(answer.stories);
            expect(copies).toBe(answer.articles);
            if (dedupe === 'exact') expect(answer.stories).toBe(truth.total);
            else expect(answer.stories).toBeLessThanOrEqual(truth.total);
            if (query === 'Quorvexa' && yearMin === null) expect(answer.stories).toBe(dedupe === 'exact' ? 4 : 2);
          }
        }
      }
    });

    it('search past the work bound: one worker holding every shard samples, workers holding parts answer within theirs, and both hold the brute-force truth', async () => {
      // Thirteen common letters occur 2.6 M times here, past the 2,000,000 located occurrences of an exact answer in
      // one worker; each worker of the cluster holds fewer (the merge of sampled parts: query/search-sample.test.ts).
      const letters = ['e', 'n', 'i', 's', 'r', 't', 'a', 'd', 'h', 'u', 'l', 'o', 'c'];
      const body = { query: `(${letters.join(' OR ')}) NOT Berlin`, index: 'news', sample_size: 2000, seed: 3 };
      const has = (text: Buffer, s: string) => text.includes(Buffer.from(s));
      const truth = articles.filter((a) => letters.some((l) => has(a.text, l)) && !has(a.text, 'Berlin')).length;
      const one = (await post(`${single.gateway.url}/api/v2/search`, body)).body as AnyJson;
      const many = (await post(`${cluster.url}/api/v2/search`, body)).body as AnyJson;
      expect(one).toMatchObject({ exact: false, sample: { size: 2000, seed: 3 } });
      expect(many).toMatchObject({ exact: true, articles: truth });
      for (const answer of [one, many]) {
        expect(answer.interval.low).toBeLessThanOrEqual(truth);
        expect(answer.interval.high).toBeGreaterThanOrEqual(truth);
        expect(answer.by_shard).toHaveLength(36);
      }
      // With dedupe: stories estimated from the same sample on one worker (copies counted from each story's
      // articles), counted exactly by the cluster; one story per distinct text among the matches.
      const matching = articles.filter((a) => letters.some((l) => has(a.text, l)) && !has(a.text, 'Berlin'));
      const stories = new Set(matching.map((a) => a.text.toString('latin1'))).size;
      const oneStories = (await post(`${single.gateway.url}/api/v2/search`, { ...body, dedupe: 'exact' })).body;
      const manyStories = (await post(`${cluster.url}/api/v2/search`, { ...body, dedupe: 'exact' })).body;
      expect(oneStories).toMatchObject({ exact: false, sample: { size: 2000, seed: 3 } });
      expect(manyStories).toMatchObject({ exact: true, stories, stories_interval: { low: stories, high: stories } });
      expect(oneStories.stories_interval.low).toBeLessThanOrEqual(stories);
      expect(oneStories.stories_interval.high).toBeGreaterThanOrEqual(stories);
      expect(stories).toBeLessThan(truth);
      for (const answer of [oneStories, manyStories])
        expect(JSON.stringify(answer)).not.toMatch(/story_sample|spanning/);
    });

    it('frequencies and keyness answer as one worker when one worker holds the subcorpus, and never overstate a count across workers', async () => {
      // 2025..2026 sit on one worker (two replicas): the answer is whole.
      await same('/api/v2/frequencies', {
        index: 'news',
        year_min: 2025,
        year_max: 2026,
        case: 'insensitive',
        limit: 50,
      });
      await same('/api/v2/keyness', {
        index: 'news',
        a: { year_min: 2025, year_max: 2025 },
        b: { year_min: 2026, year_max: 2026 },
        limit: 30,
      });
      // 2016-05 is cut into three parts on two workers: the merged counts are lower bounds, the whole answer when exact.
      const ask = (url: string, limit: number) =>
        post(`${url}/api/v2/frequencies`, { index: 'news', periods: ['2016-05'], limit });
      const [split, whole] = await Promise.all([ask(cluster.url, 20), ask(single.gateway.url, 1000)]);
      expect([split.status, whole.status]).toEqual([200, 200]);
      type Freq = { tokens: number; exact: boolean; words: { word: string; count: number }[] };
      const [c, w] = [split.body as Freq, whole.body as Freq];
      expect(c.tokens).toBe(w.tokens);
      const truth = new Map(w.words.map((x) => [x.word, x.count]));
      for (const x of c.words) expect(x.count).toBeLessThanOrEqual(truth.get(x.word) ?? Infinity);
      if (c.exact) expect(c.words).toEqual(w.words.slice(0, 20));
    });

    it('frequencies and keyness of filtered and query subcorpora merge exactly across workers or say exact: false', async () => {
      // On one worker: the whole answer, the rest of a query's articles included.
      await same('/api/v2/keyness', {
        index: 'news',
        a: { year_min: 2025, year_max: 2025, query: 'Berlin' },
        b: 'rest',
        limit: 30,
      });
      await same('/api/v2/frequencies', { index: 'news', year_min: 2025, year_max: 2026, query: 'Berlin', limit: 40 });
      // 2016-05 over two workers: each counts its parts' articles exactly, so the totals add up; the lists are lower
      // bounds, the whole answer whenever exact.
      const freq = (url: string, limit: number) =>
        post(`${url}/api/v2/frequencies`, { index: 'news', periods: ['2016-05'], query: 'Berlin', limit });
      const [split, whole] = await Promise.all([freq(cluster.url, 20), freq(single.gateway.url, 1000)]);
      expect([split.status, whole.status]).toEqual([200, 200]);
      type Freq = { tokens: number; exact: boolean; words: { word: string; count: number }[] };
      const [c, w] = [split.body as Freq, whole.body as Freq];
      expect(w.exact).toBe(true);
      expect(c.tokens).toBe(w.tokens);
      const truth = new Map(w.words.map((x) => [x.word, x.count]));
      for (const x of c.words) expect(x.count).toBeLessThanOrEqual(truth.get(x.word) ?? Infinity);
      if (c.exact) expect(c.words).toEqual(w.words.slice(0, 20));
      const key = (url: string) =>
        post(`${url}/api/v2/keyness`, { index: 'news', a: { periods: ['2016-05'], query: 'Berlin' }, b: 'rest' });
      const [ks, kw] = await Promise.all([key(cluster.url), key(single.gateway.url)]);
      type Key = { a: { tokens: number }; b: { tokens: number }; exact: boolean };
      expect([ks.status, kw.status], JSON.stringify(ks.body)).toEqual([200, 200]);
      const [x, y] = [ks.body as Key, kw.body as Key];
      expect([x.a.tokens, x.b.tokens, x.exact]).toEqual([y.a.tokens, y.b.tokens, false]);
      expect(y.exact).toBe(true);
    });

    it('never uses a worker of another release, and names the shards it would have served when it is their only one', async () => {
      const other = await buildFixtureRelease(
        [{ text: 'Eine andere Ausgabe.', warc_date: '2025-01-02T00:00:00Z' }],
        'other-release',
      );
      extra.push({ close: other.cleanup });
      const wrongRelease: BuiltRelease = { dir: other.dir, version: 'other-release', cleanup: other.cleanup };
      const wrong = await startWorkerOn(hosts, 3, wrongRelease, null);
      extra.push({ close: () => wrong.proc.stop() });
      // Workers A and B plus the wrong one: 2025–2026 has no usable replica.
      const gw = await gatewayFor({ GATEWAY_WORKER_URL: [workers[0]!.url, workers[1]!.url, wrong.url].join(',') });
      extra.push(gw);
      const health = await waitFor('wrong release seen', 5000, async () => {
        const h = await get(`${gw.url}/api/v2/health`);
        return (h.body as AnyJson).workers?.[2]?.status === 'wrong_release' ? h : undefined;
      });
      expect(health.status).toBe(503);
      const body = health.body as AnyJson;
      expect(body.missing_shards).toEqual([
        '2025-01',
        '2025-02',
        '2025-04',
        '2025-05',
        '2025-06',
        '2025-09',
        '2025-10',
        '2025-11',
        '2025-12',
        '2026-01',
        '2026-02',
        '2026-04',
        '2026-05',
        '2026-06',
        '2026-07',
        '2026-08',
      ]);
      const all = await post(`${gw.url}/api/v1/count`, { query: 'die', index: 'news' });
      expect(all.status).toBe(503);
      expect(all.headers.get('retry-after')).toBe('1');
      expect((all.body as AnyJson).code).toBe('shards_unavailable');
      // Requests that need none of the missing shards are answered, from the right release only.
      const y2016 = await post(`${gw.url}/api/v1/count`, {
        query: 'die',
        index: 'news',
        year_min: 2016,
        year_max: 2024,
      });
      const ref = await post(`${single.gateway.url}/api/v1/count`, {
        query: 'die',
        index: 'news',
        year_min: 2016,
        year_max: 2024,
      });
      expect(y2016.body.count).toBe(ref.body.count);
    });

    it('loses no request when a replica is SIGKILLed mid-load while another replica holds its shards', async () => {
      const expected = new Map<string, number>();
      for (const query of QUERIES)
        expected.set(
          query,
          (await post(`${single.gateway.url}/api/v1/count`, { query, index: 'news', year_min: 2025, year_max: 2026 }))
            .body.count,
        );
      let done = 0;
      const failures: string[] = [];
      const victim = workers[3]!;
      const load = Array.from({ length: 6 }, async (_, lane) => {
        for (let i = 0; i < 60; i++) {
          const query = QUERIES[(lane + i) % QUERIES.length]!;
          // Each lane alternates v1 counts and v2 finds, both needing the replicated shards only.
          const res =
            i % 2 === 0
              ? await post(`${cluster.url}/api/v1/count`, { query, index: 'news', year_min: 2025, year_max: 2026 })
              : await post(`${cluster.url}/api/v2/find`, {
                  query: query.trim() || 'e',
                  index: 'news',
                  year_min: 2025,
                  year_max: 2026,
                });
          if (res.status !== 200) failures.push(`${res.status} ${JSON.stringify(res.body)}`);
          else if (i % 2 === 0 && res.body.count !== expected.get(query))
            failures.push(`count ${query}: ${res.body.count}`);
          if (++done === 60) victim.proc.child.kill('SIGKILL');
        }
      });
      await Promise.all(load);
      expect(victim.proc.child.signalCode).toBe('SIGKILL');
      expect(failures).toEqual([]);
      expect(done).toBe(360);
    });

    it('answers 503 naming the shards within 1 s when their only replica dies, and recovers within 2 s when it is back', async () => {
      const a = workers[0]!;
      // A timeline with dedupe (in rounds: every worker's candidates decide exact or sampled, then the counts), its
      // worker killed while it runs: the documented 503 (or, had it finished first, the one-worker answer), never a
      // smaller total.
      const sampled = { index: 'news', query: 'e', dedupe: 'near' };
      const inFlight = post(`${cluster.url}/api/v2/timeline`, sampled);
      await new Promise((r) => setTimeout(r, 30));
      const killedAt = performance.now();
      a.proc.child.kill('SIGKILL');
      const refused = await waitFor('503 naming the shards', 1000, async () => {
        const r = await post(`${cluster.url}/api/v1/count`, { query: 'die', index: 'news' });
        return r.status === 503 ? r : undefined;
      });
      expect(performance.now() - killedAt).toBeLessThan(1000);
      expect(refused.body).toMatchObject({
        code: 'shards_unavailable',
        missing_shards: ['2016-05.p001', '2016-05.p002'],
      });
      expect(refused.headers.get('retry-after')).toBe('1');
      const lost = await inFlight;
      if (lost.status === 200)
        expect(withoutLatency(lost.body)).toEqual(
          withoutLatency((await post(`${single.gateway.url}/api/v2/timeline`, sampled)).body),
        );
      else {
        expect(lost.status).toBe(503);
        expect(lost.body.code).toMatch(/^(shards_unavailable|worker_unavailable)$/);
      }
      const timeline = await post(`${cluster.url}/api/v2/timeline`, sampled);
      expect(timeline.status).toBe(503);
      expect(timeline.body).toMatchObject({ code: 'shards_unavailable' });
      const health = await get(`${cluster.url}/api/v2/health`);
      expect(health.status).toBe(503);
      expect((health.body as AnyJson).missing_shards).toEqual(['2016-05.p001', '2016-05.p002']);
      // Untouched shards keep answering.
      expect(
        (await post(`${cluster.url}/api/v1/count`, { query: 'die', index: 'news', year_min: 2023, year_max: 2026 }))
          .status,
      ).toBe(200);

      workers[0] = await startWorkerOn(hosts, 0, release, SUBSETS[0], a.port);
      const backAt = performance.now();
      const want = (await post(`${single.gateway.url}/api/v1/count`, { query: 'die', index: 'news' })).body.count;
      const ok = await waitFor('recovered', 2000, async () => {
        const r = await post(`${cluster.url}/api/v1/count`, { query: 'die', index: 'news' });
        return r.status === 200 ? r : undefined;
      });
      expect(performance.now() - backAt).toBeLessThan(2000);
      expect(ok.body.count).toBe(want);
    });
  });
}
