/**
 * Distributed builds on the real corpora: parts of whole crawl years, built with a tiny --part-bytes (so months split
 * into `YYYY-MM.pNNN` shards) and assembled, are byte-identical in every shard and metadata file to the
 * single-process build, with the same manifest content; both index kinds.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { assembleRelease, buildRelease, openRelease, type BuildReleaseInput } from '../src/release/index.ts';
import { corpusFiles, corpusSample } from './support/corpora.ts';
import { tempDir } from './support/fixtures.ts';
import { expectSameRelease, filesUnder } from './support/release-compare.ts';

const tmp = tempDir('release-assemble-corpora-');
afterAll(() => tmp.cleanup());

/** Builds single and parts of the same input, assembles the parts, and compares; returns the single release's shard count. */
async function buildBothWays(
  name: string,
  common: Omit<BuildReleaseInput, 'out' | 'indexVersion'>,
  splits: readonly string[],
): Promise<{ single: string; assembled: string; compared: number }> {
  const dir = join(tmp.dir, name);
  const single = join(dir, 'single');
  const parts = splits.map((_, i) => join(dir, `part-${i}`));
  await Promise.all([
    buildRelease({ ...common, indexVersion: name, out: single }),
    ...splits.map((spec, i) =>
      buildRelease({ ...common, indexVersion: name, out: parts[i] as string, onlyPeriods: spec }),
    ),
  ]);
  const assembled = join(dir, 'assembled');
  const summary = await assembleRelease({ parts, out: assembled, indexVersion: name });
  expect(summary.copiedBytes).toBe(0);
  return { single, assembled, compared: expectSameRelease(single, assembled) };
}

describe('assembling parts of the real corpora', () => {
  it('suffix-array kind, every 4th article of all four corpora, 400 kB parts, two parts that split 1987 and 2011 by month, out of order', async () => {
    // A quarter of each corpus: months still split into several parts, at a quarter of the sorting cost.
    const inputDir = join(tmp.dir, 'input');
    mkdirSync(inputDir);
    const inputs = corpusSample(inputDir, 4);
    const { assembled, compared } = await buildBothWays('corpora-sa', { inputs, partBytes: 400_000 }, [
      '1987-01..1987-04,2011-07..2016-12',
      '1987-05..2011-06,2017..2026',
    ]);
    const headers = filesUnder(assembled).filter((f) => f.endsWith('/header.json'));
    // Each shard folder holds its headline index's header in titles/.
    const shards = headers.filter((f) => !f.endsWith('/titles/header.json'));
    expect(headers.length).toBe(2 * shards.length);
    expect(shards.some((f) => /\/\d{4}-\d{2}\.p\d{3}\//.test(f))).toBe(true);
    expect(compared).toBeGreaterThan(4 * shards.length);
    const release = await openRelease(assembled, { mode: 'disk', expectedIndexVersion: 'corpora-sa' });
    expect(release.indexes.get('news')?.shards.length).toBe(shards.length);
    release.close();
  }, 240_000);

  it('compressed kind, the corpora with real crawl dates and 10kGNAD, 200 kB parts', async () => {
    const inputs = corpusFiles().filter((f) => /fundus|10kgnad/.test(f));
    const { assembled } = await buildBothWays('corpora-fm', { inputs, partBytes: 200_000, kind: 'compressed' }, [
      '2016,2024-01..2024-06',
      '2023,2024-07..2026-12',
    ]);
    const release = await openRelease(assembled, { verify: 'full', expectedIndexVersion: 'corpora-fm' });
    expect(release.indexes.get('news')?.shards.length).toBeGreaterThan(30);
    release.close();
  }, 120_000);
});
