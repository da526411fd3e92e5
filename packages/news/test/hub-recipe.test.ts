/**
 * info's retrieval recipe, run with python3 against the real API (worker + gateway) and a local stand-in for the
 * dataset hub serving `news publish-hub` output. The recipe's Parquet reader (pyarrow) is not installable here
 * (no Debian package, no PyPI): the test puts a thin stand-in for that one package on PYTHONPATH (hub-support/python).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parquetReadObjects } from 'hyparquet';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { HUB_COLUMNS, pythonRecipe, type HubManifest } from '../src/hub/index.ts';
import { publishHub } from '../src/hub/publish/index.ts';
import { createTextHasher } from '../src/corpus/index.ts';
import { buildTestRelease, FIXTURE_PHRASE, startService, type LiveService } from './client-support/stack.ts';
import { expectedArticles } from './client-support/expected.ts';
import { startHubServer, type HubServer } from './hub-support/hub-server.ts';
import { runPython } from './hub-support/run-python.ts';
import { controlCharacters, TERMINAL_ESCAPES } from './hub-support/terminal.ts';
import { createServer } from 'node:http';

const REPO = 'newsroom/news-corpus';
const SHA_GOOD = 'a'.repeat(40);
const SHA_BAD = 'b'.repeat(40);

let root: string;
let releaseA: string;
let releaseB: string;
let hubGood: string;
let service: LiveService;
const hubs: HubServer[] = [];

type Row = Record<string, unknown>;

/** Rewrites the partition holding (year, doc_ix) with `change` applied to that row; keeps the manifest's sha256 right. */
async function alterRow(dir: string, year: string, docIx: number, change: (row: Row) => void): Promise<void> {
  const manifestPath = join(dir, 'shards.json');
  const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as HubManifest;
  const y = manifest.years.find((x) => x.year === year)!;
  const p = y.partitions.find((x) => x.first_doc_ix <= docIx && docIx < x.first_doc_ix + x.rows)!;
  const buf = await readFile(join(dir, p.path));
  const rows = (await parquetReadObjects({
    file: buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer,
  })) as Row[];
  change(rows[docIx - p.first_doc_ix]!);
  const body = Buffer.from(
    parquetWriteBuffer({
      columnData: HUB_COLUMNS.map((name) => ({
        name,
        data: rows.map((r) => r[name]) as never,
        type: name === 'doc_ix' ? 'INT64' : 'STRING',
      })),
    }),
  );
  await writeFile(join(dir, p.path), body);
  const partitions = y.partitions.map((x) =>
    x === p ? { ...x, bytes: body.length, sha256: createHash('sha256').update(body).digest('hex') } : x,
  );
  const years = manifest.years.map((x) => (x === y ? { ...x, partitions } : x));
  await writeFile(manifestPath, JSON.stringify({ ...manifest, years }));
}

async function copyHub(name: string): Promise<string> {
  const dir = join(root, name);
  await cp(hubGood, dir, { recursive: true });
  return dir;
}

async function hub(
  commits: { sha: string; dir: string }[],
  beforeAnswer?: (path: string) => Promise<void>,
): Promise<HubServer> {
  const h = await startHubServer(REPO, commits, beforeAnswer);
  hubs.push(h);
  return h;
}

async function runRecipe(h: HubServer, api: string, revision: string | null, args: string[]) {
  const dir = await mkdtemp(join(root, 'run-'));
  const script = join(dir, 'recipe.py');
  await writeFile(script, pythonRecipe({ apiBase: api, repo: REPO, revision, endpoint: h.url, index: 'news' }));
  const run = await runPython(script, [...args, '--out', 'out.jsonl'], dir, true);
  const out = join(dir, 'out.jsonl');
  const rows = existsSync(out)
    ? (await readFile(out, 'utf8'))
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Row)
    : null;
  return { ...run, rows };
}

let fixtureKey: { year: string; doc_ix: number };

/**
 * A hostile API in front of the real one: `tamper` may answer a path itself (status, JSON body) or edit the
 * real answer; everything else passes through.
 */
async function tamperingApi(
  tamper: (path: string, real: () => Promise<unknown>) => Promise<{ status: number; body: unknown }>,
): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = chunks.length === 0 ? undefined : Buffer.concat(chunks);
      const real = async () =>
        (
          await fetch(`${service.url}${req.url}`, {
            method: req.method,
            body,
            headers: { 'content-type': 'application/json' },
          })
        ).json() as Promise<unknown>;
      void tamper(req.url ?? '', real).then((a) => {
        res.writeHead(a.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(a.body));
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const addr = server.address() as { port: number };
  return { url: `http://127.0.0.1:${addr.port}`, close: () => new Promise((r) => server.close(() => r())) };
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'hub-recipe-'));
  releaseA = await buildTestRelease(root, 'recipe-a');
  releaseB = await buildTestRelease(root, 'recipe-b');
  hubGood = join(root, 'hub-good');
  await publishHub({ release: releaseA, out: hubGood, index: 'news', partitionRows: 25, force: false });
  service = await startService(releaseA, 'recipe-a');
  const first = [...(await expectedArticles(releaseA, FIXTURE_PHRASE, null, null, {})).values()][0]!;
  fixtureKey = { year: first.year, doc_ix: first.doc_ix };
});

afterAll(async () => {
  for (const h of hubs) await h.close();
  await service?.close();
  await rm(root, { recursive: true, force: true });
});

describe('dataset hub retrieval recipe', () => {
  it('retrieves rows that verify, resolving the latest commit once and downloading each partition once at it', async () => {
    const h = await hub([{ sha: SHA_GOOD, dir: hubGood }]);
    const r = await runRecipe(h, service.url, null, ['die', '--limit', '80']);
    expect(r.stderr).toContain('verified 80 articles');
    expect(r.code).toBe(0);
    const expected = await expectedArticles(releaseA, 'die', null, null, {});
    const hash = await createTextHasher();
    expect(r.rows).toHaveLength(80);
    for (const row of r.rows!) {
      const e = expected.get(`${row['year']}:${row['doc_ix']}`)!;
      expect(row['text']).toBe(e.text);
      expect(row['warc_record_id']).toBe(e.metadata.warc_record_id);
      expect(row['text_xxhash64']).toBe(hash(Buffer.from(e.text, 'utf8')));
      expect(row['revision']).toBe(SHA_GOOD);
    }
    expect(h.requests.filter((p) => p.startsWith('/api/datasets/'))).toHaveLength(1);
    const files = h.requests.filter((p) => p.includes('/resolve/'));
    expect(files.every((p) => p.includes(`/resolve/${SHA_GOOD}/`))).toBe(true);
    const parquet = files.filter((p) => p.endsWith('.parquet'));
    expect(new Set(parquet).size).toBe(parquet.length);
    expect(parquet.length).toBeGreaterThan(1);
    expect(files.slice(0, 2).map((p) => p.split('/').at(-1))).toEqual(['hub-release.json', 'shards.json']);
  });

  it('pins the configured revision (GATEWAY_HF_CORPUS_REVISION) instead of the latest commit', async () => {
    const bad = await copyHub('hub-hash');
    await alterRow(bad, fixtureKey.year, fixtureKey.doc_ix, (row) => {
      row['text_xxhash64'] = '12345';
    });
    const h = await hub([
      { sha: SHA_GOOD, dir: hubGood },
      { sha: SHA_BAD, dir: bad },
    ]);
    const r = await runRecipe(h, service.url, SHA_GOOD, [FIXTURE_PHRASE]);
    expect(r.code).toBe(0);
    expect(r.rows).toHaveLength(3);
    expect(h.requests.some((p) => p.startsWith('/api/datasets/') || p.includes(SHA_BAD))).toBe(false);
  });

  it('stops on a changed text_xxhash64 and writes nothing', async () => {
    const bad = await copyHub('hub-hash-2');
    await alterRow(bad, fixtureKey.year, fixtureKey.doc_ix, (row) => {
      row['text_xxhash64'] = '12345';
    });
    const h = await hub([
      { sha: SHA_GOOD, dir: hubGood },
      { sha: SHA_BAD, dir: bad },
    ]);
    const r = await runRecipe(h, service.url, null, [FIXTURE_PHRASE]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/text_xxhash64 differs \(hub 12345, API \d+\)/);
    expect(r.rows).toBeNull();
  });

  it('stops when warc_record_id is missing from a row', async () => {
    const bad = await copyHub('hub-missing');
    await alterRow(bad, fixtureKey.year, fixtureKey.doc_ix, (row) => {
      row['warc_record_id'] = null;
    });
    const h = await hub([{ sha: SHA_BAD, dir: bad }]);
    const r = await runRecipe(h, service.url, null, [FIXTURE_PHRASE]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('warc_record_id is missing in the hub row');
    expect(r.rows).toBeNull();
  });

  it('stops before any row when the API serves another release than the publication', async () => {
    const other = await startService(releaseB, 'recipe-b');
    try {
      const h = await hub([{ sha: SHA_GOOD, dir: hubGood }]);
      const r = await runRecipe(h, other.url, null, [FIXTURE_PHRASE]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain("is release 'recipe-a', the API serves 'recipe-b'");
      expect(h.requests.some((p) => p.endsWith('.parquet'))).toBe(false);
    } finally {
      await other.close();
    }
  });

  it('prints no control character from a hostile answer and stops with the cleaned message', async () => {
    const h = await hub([{ sha: SHA_GOOD, dir: hubGood }]);
    const api = await tamperingApi(async (path, real) =>
      path.startsWith('/api/v2/info')
        ? { status: 503, body: { detail: `down ${TERMINAL_ESCAPES} for now`, code: 'worker_unavailable' } }
        : { status: 200, body: await real() },
    );
    try {
      const r = await runRecipe(h, api.url, null, [FIXTURE_PHRASE]);
      expect(r.code).toBe(2);
      expect(controlCharacters(r.stdout + r.stderr)).toEqual([]);
      expect(r.stderr).toContain('answered 503: down red for now');
      expect(r.rows).toBeNull();
    } finally {
      await api.close();
    }
  });

  it("stops at once when find's rank intervals contradict its total instead of paging through them", async () => {
    const h = await hub([{ sha: SHA_GOOD, dir: hubGood }]);
    let pages = 0;
    const api = await tamperingApi(async (path, real) => {
      const body = (await real()) as { segment_by_shard?: [number, number][] };
      if (path === '/api/v2/documents') pages++;
      if (path === '/api/v2/find') body.segment_by_shard![0]![1] += 10 ** 15;
      return { status: 200, body };
    });
    try {
      const r = await runRecipe(h, api.url, null, [FIXTURE_PHRASE]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/stopped: find's rank intervals hold \d+ occurrences but its total_occurrences is \d+/);
      expect(pages).toBe(0);
      expect(r.rows).toBeNull();
    } finally {
      await api.close();
    }
  });

  it('stops when the API release changes while rows are being retrieved', async () => {
    const swapped = await startService(releaseA, 'recipe-a');
    let current: LiveService = swapped;
    const h = await hub([{ sha: SHA_GOOD, dir: hubGood }], async (path) => {
      if (path.endsWith('.parquet') && current.indexVersion === 'recipe-a') {
        const port = current.port;
        await current.close();
        current = await startService(releaseB, 'recipe-b', port);
      }
    });
    try {
      const r = await runRecipe(h, swapped.url, null, [FIXTURE_PHRASE]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('the API release changed');
      expect(r.rows).toBeNull();
    } finally {
      await current.close();
    }
  });
});
