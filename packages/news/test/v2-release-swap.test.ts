/**
 * A release swap while a client pages: the worker restarts on another release (and then the gateway is
 * reconfigured for it). Every continuation carrying the old version gets 409 (or 503 while the gateway still
 * expects the old release), never a 200 with the other release's data. Articles are written here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FindResult } from '../src/search-v2/index.ts';
import { planPages } from '../src/search-v2/index.ts';
import { buildV2Release, startGatewayProcess, startWorkerProcess, v2, type BuiltRelease } from './v2-support.ts';
import type { NewsProcess } from './e2e-processes.ts';

/** Ten articles per release, each with several occurrences of `needle`; titles name the release. */
function records(tag: string, n: number): Record<string, unknown>[] {
  return Array.from({ length: n }, (_, i) => ({
    text: `${tag} article ${i}: ` + 'needle and more text, '.repeat(2 + (i % 4)),
    warc_date: `2025-0${1 + (i % 3)}-1${i % 10}T08:00:00Z`,
    title: `${tag} #${i}`,
  }));
}

const OLD = 'swap-old';
const NEW = 'swap-new';
let oldRelease: BuiltRelease;
let newRelease: BuiltRelease;
const procs: NewsProcess[] = [];

beforeAll(async () => {
  [oldRelease, newRelease] = await Promise.all([
    buildV2Release(OLD, { records: records('OLD', 10) }),
    buildV2Release(NEW, { records: records('NEW', 13) }),
  ]);
}, 120_000);

afterAll(async () => {
  for (const p of procs) await p.stop();
  await oldRelease?.cleanup();
  await newRelease?.cleanup();
});

type Reply = { status: number; body: Record<string, unknown> & { documents?: { metadata: { title: string } }[] } };

describe('release swap while paging', () => {
  it('answers 409 (or 503 during the switch) to every old-version continuation and never mixes releases', async () => {
    const worker1 = await startWorkerProcess(oldRelease);
    procs.push(worker1.proc);
    const port = Number(new URL(worker1.url).port);
    const gateway1 = await startGatewayProcess(worker1.url, OLD);
    procs.push(gateway1.proc);

    const found = (await v2(gateway1.url, 'find', { index: 'news', query: 'needle' })).body as FindResult;
    expect(found.index_version).toBe(OLD);
    const pages = planPages(found, 3);
    expect(pages.length).toBeGreaterThan(6);
    const page = (url: string, i: number) =>
      v2(url, 'documents', { index: 'news', expected_index_version: OLD, query: 'needle', ...pages[i % pages.length] });

    // A client pages continuously while the worker is replaced by one serving the new release.
    const seen: Reply[] = [];
    let paging = true;
    const client = (async () => {
      for (let i = 0; paging; i++) {
        try {
          seen.push(await page(gateway1.url, i));
        } catch {
          /* the gateway itself stays up; a dropped connection is not an answer */
        }
      }
    })();
    // Waits on answers rather than time: the machine may be slow, the ordering is what matters.
    const until = async (n: number) => {
      while (seen.length < n) await new Promise((r) => setTimeout(r, 20));
    };
    await until(3);
    await worker1.proc.stop();
    const worker2 = await startWorkerProcess(newRelease, port);
    procs.push(worker2.proc);
    await until(seen.length + 10);
    paging = false;
    await client;

    const before = seen.filter((r) => r.status === 200);
    const after = seen.slice(seen.findIndex((r) => r.status !== 200));
    expect(before.length).toBeGreaterThan(0);
    for (const r of before) {
      expect(r.body.index_version).toBe(OLD);
      expect(r.body.documents?.every((d) => d.metadata.title.startsWith('OLD #'))).toBe(true);
    }
    // Once the worker serves the new release, old-version pages are refused: stale (409) or unbound (503).
    expect(after.length).toBeGreaterThan(0);
    expect(
      after.every(
        (r) =>
          (r.status === 409 && r.body.code === 'stale_index_version') ||
          (r.status === 503 && r.body.code === 'release_unavailable') ||
          (r.status === 503 && r.body.code === 'worker_unavailable'),
      ),
    ).toBe(true);
    expect(after.some((r) => r.status === 200)).toBe(false);

    // The gateway is reconfigured for the new release: every old-version continuation is a 409.
    await gateway1.proc.stop();
    const gateway2 = await startGatewayProcess(worker2.url, NEW);
    procs.push(gateway2.proc);
    const oldVersion = { index: 'news', expected_index_version: OLD };
    const shard = pages[0]!;
    const continuations: [string, object][] = [
      ['documents', { ...oldVersion, query: 'needle', ...shard }],
      ['occurrences', { ...oldVersion, query: 'needle', ...shard }],
      ['get_doc', { ...oldVersion, query: 'needle', shard_id: shard.shard_id, rank: shard.rank_from }],
      ['metadata', { ...oldVersion, documents: [{ year: '2025', doc_ix: 0 }] }],
    ];
    for (const [path, body] of continuations) {
      const res = await v2(gateway2.url, path, body);
      expect([path, res.status, res.body]).toEqual([
        path,
        409,
        {
          detail: expect.any(String),
          code: 'stale_index_version',
          expected_index_version: OLD,
          index_version: NEW,
        },
      ]);
    }
    for (let i = 0; i < pages.length; i++) expect((await page(gateway2.url, i)).status).toBe(409);

    // A new find binds the client to the new release, whose pages hold only new articles.
    const refound = (await v2(gateway2.url, 'find', { index: 'news', query: 'needle' })).body as FindResult;
    expect(refound.index_version).toBe(NEW);
    for (const p of planPages(refound, 3)) {
      const res = await v2(gateway2.url, 'documents', {
        index: 'news',
        expected_index_version: NEW,
        query: 'needle',
        ...p,
      });
      expect(res.status).toBe(200);
      expect(
        res.body.documents.every((d: { metadata: { title: string } }) => d.metadata.title.startsWith('NEW #')),
      ).toBe(true);
    }
  });
});
