/**
 * The release builder indexes a month's parts while it still reads the input (reading takes one core, a sort the
 * other). The input is a FIFO the test writes in two halves: the first part's index must appear while the builder
 * is still waiting for the second half, and the release must still hold every article exactly once.
 */
import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, readdirSync, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildRelease, openRelease, type ReleaseIndex } from '../src/release/index.ts';
import { article, tempDir } from './support/fixtures.ts';

const tmp = tempDir('release-pipelined-');
afterAll(() => tmp.cleanup());

const ARTICLES = 120;
/** About 8 articles per part: the month is cut into ~15 parts. */
const PART_BYTES = 600;
const line = (n: number): string =>
  `${JSON.stringify(article(n, '2024-03-05', { text: `Pipelined article ${n} ${'x'.repeat(40)} needle` }))}\n`;

function fifo(dir: string): string {
  const path = join(dir, 'in.jsonl');
  const made = spawnSync('mkfifo', [path]);
  if (made.status !== 0) throw new Error(`mkfifo failed: ${made.stderr.toString()}`);
  return path;
}

const write = (out: WriteStream, text: string): Promise<void> =>
  new Promise((resolve, reject) => out.write(text, (e) => (e ? reject(e) : resolve())));

/** Waits until the partial release beside `out` holds an indexed first part (its header.json is written last). */
async function firstPartIndexed(dir: string, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const partial = readdirSync(dir).find((e) => e.startsWith('r.partial-'));
    if (partial && existsSync(join(dir, partial, 'indexes/news/shards/2024-03.p001/header.json'))) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return false;
}

describe('buildRelease indexes parts while reading', () => {
  for (const kind of ['sa', 'compressed'] as const) {
    it(`${kind}: the first part is indexed before the input ends, and the release holds every article once`, async () => {
      const dir = tmp.fresh();
      const input = fifo(dir);
      const building = buildRelease({
        inputs: [input],
        out: join(dir, 'r'),
        indexVersion: 'v1',
        partBytes: PART_BYTES,
        kind,
      });
      const out = createWriteStream(input);
      for (let n = 0; n < ARTICLES / 2; n++) await write(out, line(n));
      // The builder is now blocked on the FIFO, half-way through its input.
      const early = await firstPartIndexed(dir, 20_000);
      for (let n = ARTICLES / 2; n < ARTICLES; n++) await write(out, line(n));
      out.end();
      const summary = await building;
      expect(early).toBe(true);
      expect(summary.documents).toBe(ARTICLES);
      expect(summary.shards).toBeGreaterThan(10);
      // Stage times: every phase timed, and they add up to no more than the build's own time.
      const { phases, busyMs } = summary.stages;
      expect(Object.keys(phases).sort()).toEqual(['index', 'manifest', 'metadata', 'read']);
      for (const p of Object.values(phases)) expect(p.cpuMs).toBeGreaterThanOrEqual(0);
      const wall = Object.values(phases).reduce((n, p) => n + p.wallMs, 0);
      expect(wall).toBeLessThanOrEqual(summary.seconds * 1000 + 50);
      // The read waited for the test's second half, with parts indexed beside it.
      expect(phases.read?.wallMs).toBeGreaterThan(0);
      expect(busyMs.index).toBeGreaterThan(0);
      expect(busyMs.titles).toBeGreaterThan(0);
      expect(busyMs.words).toBeGreaterThan(0);
      expect(busyMs.stories).toBeGreaterThan(0);
      const release = await openRelease(join(dir, 'r'));
      const ix = release.indexes.get('news') as ReleaseIndex;
      expect(ix.shards.map((s) => s.shardId)).toEqual(
        ix.shards.map((_, i) => `2024-03.p${String(i + 1).padStart(3, '0')}`),
      );
      expect(ix.shards.reduce((n, s) => n + s.reader.count(Buffer.from('needle')), 0)).toBe(ARTICLES);
      expect(ix.shards.reduce((n, s) => n + s.reader.stats.docCount, 0)).toBe(ARTICLES);
      release.close();
    }, 60_000);
  }

  it('an interrupt while parts are indexed during the read removes everything and rejects with "aborted"', async () => {
    const dir = tmp.fresh();
    const input = fifo(dir);
    const controller = new AbortController();
    const building = buildRelease({
      inputs: [input],
      out: join(dir, 'r'),
      indexVersion: 'v1',
      partBytes: PART_BYTES,
      kind: 'compressed',
      signal: controller.signal,
    });
    const outcome = building.then(
      () => 'built',
      (e: unknown) => e,
    );
    const out = createWriteStream(input);
    out.on('error', () => {}); // EPIPE once the builder has stopped reading
    for (let n = 0; n < ARTICLES / 2; n++) await write(out, line(n));
    expect(await firstPartIndexed(dir, 20_000)).toBe(true);
    controller.abort();
    // The builder notices the signal at its next batch of 256 records, then stops reading.
    for (let n = ARTICLES / 2; n < 4 * ARTICLES; n++)
      if (
        !(await write(out, line(n)).then(
          () => true,
          () => false,
        ))
      )
        break;
    out.destroy();
    expect(await outcome).toMatchObject({ code: 'aborted' });
    expect(readdirSync(dir).sort()).toEqual(['in.jsonl']);
  }, 60_000);
});
