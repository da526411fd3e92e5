import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultSyntheticCorpusOptions, writeSyntheticCorpus } from '../src/corpus/index.ts';
import { buildRelease } from '../src/release/index.ts';
import { tempDir } from './support/fixtures.ts';
import { expectSameRelease } from './support/release-compare.ts';

const NEWS = fileURLToPath(new URL('../bin/news.js', import.meta.url));
const tmp = tempDir('cli-release-assemble-');
afterAll(() => tmp.cleanup());

const news = (...args: string[]) =>
  spawnSync(process.execPath, [NEWS, ...args], { encoding: 'utf8', timeout: 120_000 });
const at = (name: string): string => join(tmp.dir, name);

describe('news build --only-periods and news release assemble', () => {
  it("builds two parts splitting a year, refuses an incomplete set with one line naming the missing months, and assembles the single build's release", async () => {
    const corpus = at('c.jsonl.gz');
    await writeSyntheticCorpus(corpus, { ...defaultSyntheticCorpusOptions, textBytes: 150_000, years: 3 });
    const common = ['--input', corpus, '--index-version', 'cli-parts', '--part-bytes', '20000'];
    // The single-process reference is built in-process (each CLI start costs seconds on a loaded machine).
    await buildRelease({ inputs: [corpus], out: at('single'), indexVersion: 'cli-parts', partBytes: 20_000 });

    for (const [out, spec, years] of [
      ['p1', '2019,2020-01..2020-06', ['2019', '2020']],
      ['p2', '2020-07..2021-12', ['2020', '2021']],
    ] as const) {
      const part = news('build', ...common, '--out', at(out), '--only-periods', spec);
      expect(part.status, part.stderr).toBe(0);
      expect(JSON.parse(part.stdout)).toMatchObject({ part_years: years, years: years.length });
    }
    const missing = news('release', 'assemble', '--out', at('r'), '--index-version', 'cli-parts', at('p1'));
    expect(missing.status).toBe(1);
    expect(missing.stderr.split('\n').filter((l) => l.startsWith('news release assemble:'))).toEqual([
      expect.stringMatching(
        /the input has crawl periods that no part holds: 2020-07 \(\d+ articles\), .*; build them with news build … --only-periods 2020-07,[\d,-]+ --out PART_DIR/,
      ),
    ]);
    expect(existsSync(at('r'))).toBe(false);

    const ok = news('release', 'assemble', '--out', at('r'), '--index-version', 'cli-parts', at('p2'), at('p1'));
    expect(ok.status, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ index_version: 'cli-parts', parts: 2, years: 3, copied_bytes: 0 });
    expect(ok.stderr).toMatch(/"msg":"assemble done: (\d+)\/\1 files/);
    expectSameRelease(at('single'), at('r'));
  }, 120_000);
});
