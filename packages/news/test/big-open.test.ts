/**
 * Issue 24: a one-month 0.7 GB corpus built with news build's defaults is one part whose suffix array passes 2 GiB,
 * and `news serve` (memory mode) used to die at start (readFileSync refuses files over 2 GiB). Builds and serves it
 * for real, so it takes minutes and ~4 GB of RAM: runs only with NEWS_BIG_TESTS=1 (e.g. `NEWS_BIG_TESTS=1 npx vitest
 * run --project news test/big-open.test.ts`). Data goes to BIG_TEST_DIR (default: the OS temp folder), then is removed.
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  BIG_OPEN_PHRASES,
  buildOneMonthRelease,
  countOverHttp,
  memoryOf,
  scanCorpusCounts,
  serveRelease,
} from './support/one-month-release.ts';

const BIG = process.env['NEWS_BIG_TESTS'] === '1';
const TEXT_BYTES = 700_000_000;
const work = BIG ? mkdtempSync(join(process.env['BIG_TEST_DIR'] ?? tmpdir(), 'big-open-')) : '';
afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe.skipIf(!BIG)('a one-month 0.7 GB release built with the defaults (NEWS_BIG_TESTS=1)', () => {
  it('is served in memory by news serve, with counts equal to a scan of the corpus', async () => {
    const { corpus, release } = await buildOneMonthRelease(work, TEXT_BYTES);
    const shards = join(release, 'indexes/news/shards');
    const [only, ...more] = readdirSync(shards);
    expect(more).toEqual([]); // one part: the defaults do not split a 0.7 GB month
    expect(statSync(join(shards, only as string, 'sa.u32')).size).toBeGreaterThan(2 ** 31);
    const serving = await serveRelease(release);
    try {
      const counts = await Promise.all(BIG_OPEN_PHRASES.map((p) => countOverHttp(serving.url, p)));
      expect(counts).toEqual(await scanCorpusCounts(corpus, BIG_OPEN_PHRASES));
      expect(counts.filter((c) => c > 0).length).toBe(BIG_OPEN_PHRASES.length - 1); // only the absent phrase is 0
      process.stderr.write(
        `big open: served in ${(serving.startMs / 1000).toFixed(1)} s, worker RSS ${memoryOf(serving.workerPid).rss} bytes\n`,
      );
    } finally {
      await serving.stop();
    }
  }, 3_600_000);
});
