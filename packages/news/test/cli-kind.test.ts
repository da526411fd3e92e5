import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultSyntheticCorpusOptions, writeSyntheticCorpus } from '../src/corpus/index.ts';
import type { IndexManifest } from '../src/release/index.ts';
import { tempDir } from './support/fixtures.ts';

const NEWS = fileURLToPath(new URL('../bin/news.js', import.meta.url));
const tmp = tempDir('cli-kind-');
afterAll(() => tmp.cleanup());

const news = (...args: string[]) =>
  spawnSync(process.execPath, [NEWS, ...args], { encoding: 'utf8', timeout: 120_000 });
const counts = (stdout: string): unknown[] =>
  stdout
    .trim()
    .split('\n')
    .map((l) => (JSON.parse(l) as { count: unknown }).count);

describe('news build --kind', () => {
  it('builds a compressed release that news count answers exactly as the suffix-array release', async () => {
    const corpus = join(tmp.dir, 'demo.jsonl.gz');
    await writeSyntheticCorpus(corpus, { ...defaultSyntheticCorpusOptions, textBytes: 300_000, years: 1 });
    for (const kind of ['sa', 'compressed']) {
      const build = news(
        'build',
        '--input',
        corpus,
        '--out',
        join(tmp.dir, kind),
        '--index-version',
        'cli-kind-1',
        '--kind',
        kind,
      );
      expect(build.status, build.stderr).toBe(0);
    }
    const manifest = JSON.parse(
      readFileSync(join(tmp.dir, 'compressed', 'index-manifest.json'), 'utf8'),
    ) as IndexManifest;
    expect(new Set(manifest.indexes[0]?.shards.map((s) => s.kind))).toEqual(new Set(['compressed']));
    const queries = ['SYNTHETIC', 'a', 'no such string \u2603', 'e '];
    const sa = news('count', '--release', join(tmp.dir, 'sa'), ...queries);
    const fm = news('count', '--release', join(tmp.dir, 'compressed'), '--disk', ...queries);
    expect(fm.status, fm.stderr).toBe(0);
    expect(counts(fm.stdout)).toEqual(counts(sa.stdout));
    expect(counts(fm.stdout)[1]).toBeGreaterThan(1000); // 'a'
  });

  it('refuses an unknown kind before reading the input, naming the kinds it accepts', () => {
    const r = news(
      'build',
      '--input',
      join(tmp.dir, 'none'),
      '--out',
      join(tmp.dir, 'x'),
      '--index-version',
      'k',
      '--kind',
      'fm',
    );
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/fm.*(sa, compressed|"sa", "compressed")/s);
  });
});
