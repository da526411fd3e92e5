/** `news frequencies` on a release of a real corpus (fundus, many languages), against a brute-force scan. */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoverInputFiles, readArticles } from '../src/corpus/index.ts';
import { foldWord, wordList } from '../src/words/index.ts';
import { tempDir } from './support/fixtures.ts';
import { corpusFiles } from './v2-support.ts';

const NEWS = fileURLToPath(new URL('../bin/news.js', import.meta.url));
const tmp = tempDir('cli-frequencies-');
const release = join(tmp.dir, 'release');
const input = corpusFiles().filter((f) => f.includes('fundus'));
const news = (...args: string[]) =>
  spawnSync(process.execPath, [NEWS, ...args], { encoding: 'utf8', timeout: 120_000 });
const jsonLines = (text: string) =>
  text
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
/** Folded word counts of the crawl year 2024, by brute force. */
const want = new Map<string, number>();

beforeAll(async () => {
  const build = news('build', '--input', ...input, '--out', release, '--index-version', 'cli-freq-1');
  expect(build.status, build.stderr).toBe(0);
  for await (const r of readArticles(await discoverInputFiles(input), { skipBad: false }, { records: 0, skipped: 0 })) {
    if (r.crawl.year !== '2024') continue;
    for (const w of wordList(r.text)) want.set(foldWord(w), (want.get(foldWord(w)) ?? 0) + 1);
  }
}, 180_000);
afterAll(() => tmp.cleanup());

describe('news frequencies', () => {
  it('prints the top words of a year from the flags as one JSON line, as a brute-force scan counts them', () => {
    const run = news(
      'frequencies',
      '--release',
      release,
      '--year-min',
      '2024',
      '--year-max',
      '2024',
      '--ignore-case',
      '--limit',
      '20',
    );
    expect(run.status, run.stderr).toBe(0);
    const [line] = jsonLines(run.stdout);
    const top = [...want].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 20);
    expect((line?.words as { word: string; count: number }[]).map((w) => [w.word, w.count])).toEqual(top);
    expect(line?.tokens).toBe([...want.values()].reduce((a, b) => a + b, 0));
  });

  it('answers one line per request of --requests, a refused one with its error and exit status 1', () => {
    const file = join(tmp.dir, 'requests.jsonl');
    writeFileSync(
      file,
      '{"year_min":2024,"year_max":2024,"case":"insensitive","limit":3}\n{"periods":["1999-01"]}\n{"limit":1001}\n',
    );
    const run = news('frequencies', '--release', release, '--requests', file);
    expect(run.status).toBe(1);
    const lines = jsonLines(run.stdout);
    expect(lines).toHaveLength(3);
    expect((lines[0]?.words as unknown[]).length).toBe(3);
    expect(lines[1]).toMatchObject({ error: { code: 'unknown_period' } });
    expect(lines[2]).toMatchObject({ error: { code: 'invalid_request' } });
  });
});
