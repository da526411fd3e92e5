/**
 * The generated download script (python3, standard library) against a hostile stand-in server: terminal escapes in
 * every string it could print, and answers that contradict the totals. It must print no control character, stop
 * with a clear message and a non-zero status, and do so quickly. A run against a real gateway shows the checks
 * accept honest answers.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDownloadScript } from '../src/client/export/download-script.ts';
import { EMPTY_FILTERS } from '../src/client/search/url-state.ts';
import { runPython } from './hub-support/run-python.ts';
import { controlCharacters, TERMINAL_ESCAPES } from './hub-support/terminal.ts';
import { useFixtureStack } from './gateway-harness.ts';
import { FIXTURE } from './gateway-fixture.ts';

const HUGE = 10 ** 15;

type Answer = { status: number; body: unknown };
type Scenario = (path: string, body: Record<string, unknown>) => Answer;

const find = (total: number, segments: unknown, versionSuffix = ''): Answer => ({
  status: 200,
  body: {
    index_version: `v1${versionSuffix}`,
    total_occurrences: total,
    segment_by_shard: segments,
    shard_ids: ['2019-01'],
    shard_years: ['2019'],
  },
});
const page = (from: number, to: number, documents: unknown[]): Answer => ({
  status: 200,
  body: {
    index_version: 'v1',
    rank_from: from,
    rank_to: to,
    page_occurrences: to - from,
    page_distinct_documents: documents.length,
    documents,
  },
});
const doc = (docIx: number, occurrences: number, firstRank: number) => ({
  year: '2019',
  doc_ix: docIx,
  occurrences,
  first_rank: firstRank,
  metadata: { title: TERMINAL_ESCAPES },
});

const SCENARIOS: Record<string, Scenario> = {
  'escapes in the release name and in an error detail': (path) =>
    path === '/api/v2/find'
      ? find(1, [[0, 1]], TERMINAL_ESCAPES)
      : { status: 422, body: { detail: `bad ${TERMINAL_ESCAPES} request`, code: `x${TERMINAL_ESCAPES}` } },
  'a huge segment_by_shard that does not add up to the total': () => find(3, [[0, HUGE]]),
  'a continuation that does not advance': (path, body) =>
    path === '/api/v2/find' ? find(HUGE, [[0, HUGE]]) : page(0, 1000, [doc(Number(body['rank_from']), 1, 0)]),
  'more occurrences in a page than ranks asked for': (path) =>
    path === '/api/v2/find' ? find(2, [[0, 2]]) : page(0, 2, [doc(1, 5, 0)]),
  'a page of ranks without any article': (path) =>
    path === '/api/v2/find' ? find(HUGE, [[0, HUGE]]) : page(0, 1000, []),
};

let server: Server;
let api = '';
let root = '';
let scenario: Scenario = () => ({ status: 500, body: {} });
let requests = 0;

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'dl-hostile-'));
  server = createServer((req, res) => {
    requests++;
    void readJson(req).then((body) => {
      const a = scenario(req.url ?? '', body);
      res.writeHead(a.status, { 'content-type': 'application/json' });
      // JSON's \u escapes arrive in Python as the raw control characters.
      res.end(JSON.stringify(a.body));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const addr = server.address();
  if (addr === null || typeof addr === 'string') throw new Error('no address');
  api = `http://127.0.0.1:${addr.port}`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  await rm(root, { recursive: true, force: true });
});

async function runScript(
  apiBase: string,
  query: string,
): Promise<{ code: number | null; output: string; dir: string; ms: number }> {
  const dir = await mkdtemp(join(root, 'run-'));
  const script = join(dir, 'news-download.py');
  await writeFile(
    script,
    buildDownloadScript({
      apiBase,
      query,
      index: 'news',
      yearMin: null,
      yearMax: null,
      filters: EMPTY_FILTERS,
      generatedAt: '2026-11-24T00:00:00Z',
    }),
  );
  const t0 = performance.now();
  const run = await runPython(script, [], dir);
  return { code: run.code, output: run.stdout + run.stderr, dir, ms: performance.now() - t0 };
}

describe('download script against a hostile server', () => {
  for (const [name, s] of Object.entries(SCENARIOS)) {
    it(`${name}: prints no control character, stops non-zero with a clear message, writes nothing`, async () => {
      scenario = s;
      requests = 0;
      const run = await runScript(api, 'alpha');
      expect(controlCharacters(run.output)).toEqual([]);
      expect(run.output).not.toContain('52;c;');
      expect(run.code).not.toBe(0);
      expect(run.output).toMatch(
        /news-download: (stopped, the service's answer is inconsistent|\/api\/v2\/documents answered 422)/,
      );
      expect(run.ms).toBeLessThan(20_000);
      expect(requests).toBeLessThanOrEqual(3);
      expect(existsSync(join(run.dir, 'news-articles.jsonl'))).toBe(false);
    });
  }

  it('names the contradiction: the intervals against the total', async () => {
    scenario = SCENARIOS['a huge segment_by_shard that does not add up to the total']!;
    const run = await runScript(api, 'alpha');
    expect(run.code).toBe(4);
    expect(run.output).toContain(`find's rank intervals hold ${HUGE} occurrences but its total_occurrences is 3`);
  });
});

describe('download script against a real gateway', () => {
  const fixture = useFixtureStack(FIXTURE, 'fixture-download');
  it('accepts honest answers and writes every article', async () => {
    const query = 'alpha beta';
    const holding = FIXTURE.filter((a) => a.text.includes(query))
      .map((a) => a.text)
      .sort();
    const run = await runScript(fixture.stack.gatewayUrl, query);
    expect(run.output).toContain(`wrote ${holding.length} articles`);
    expect(run.code).toBe(0);
    const lines = (await readFile(join(run.dir, 'news-articles.jsonl'), 'utf8')).trim().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as { text: string }).text).sort()).toEqual(holding);
  });
});
