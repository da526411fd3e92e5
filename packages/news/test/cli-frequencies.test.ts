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
/** Case-sensitive counts of the 2024 articles holding `the` (byte-exact, as a query term) and of the others. */
const withThe = new Map<string, number>();
const withoutThe = new Map<string, number>();
/** Case-sensitive counts of the German articles (language `de`) of every year. */
const german = new Map<string, number>();
const add = (m: Map<string, number>, w: string) => m.set(w, (m.get(w) ?? 0) + 1);
const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);

beforeAll(async () => {
  const build = news('build', '--input', ...input, '--out', release, '--index-version', 'cli-freq-1');
  expect(build.status, build.stderr).toBe(0);
  for await (const r of readArticles(await discoverInputFiles(input), { skipBad: false }, { records: 0, skipped: 0 })) {
    if (r.fields.language === 'de') for (const w of wordList(r.text)) add(german, w);
    if (r.crawl.year !== '2024') continue;
    for (const w of wordList(r.text)) want.set(foldWord(w), (want.get(foldWord(w)) ?? 0) + 1);
    for (const w of wordList(r.text)) add(r.text.includes('the') ? withThe : withoutThe, w);
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

describe('news frequencies of filtered articles', () => {
  it('prints the top words of the German articles (--languages) as a brute-force scan counts them', () => {
    const run = news('frequencies', '--release', release, '--languages', 'de', '--limit', '50');
    expect(run.status, run.stderr).toBe(0);
    const [line] = jsonLines(run.stdout);
    const top = [...german].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 50);
    expect((line?.words as { word: string; count: number }[]).map((w) => [w.word, w.count])).toEqual(top);
    expect([line?.tokens, line?.exact, line?.sample]).toEqual([sum(german), true, null]);
  });
});

describe('news keyness', () => {
  it("prints the keywords of a query's articles against the rest of their year, with the brute-force counts", () => {
    const run = news(
      'keyness',
      '--release',
      release,
      '--a-year-min',
      '2024',
      '--a-year-max',
      '2024',
      '--a-query',
      'the',
      '--b-rest',
      '--limit',
      '30',
    );
    expect(run.status, run.stderr).toBe(0);
    const [line] = jsonLines(run.stdout) as {
      a: { tokens: number };
      b: { tokens: number };
      a_over_b: { word: string; count_a: number; count_b: number }[];
      b_over_a: { word: string; count_a: number; count_b: number }[];
      exact: boolean;
    }[];
    expect([line?.a.tokens, line?.b.tokens, line?.exact]).toEqual([sum(withThe), sum(withoutThe), true]);
    expect(line?.a_over_b.length).toBe(30);
    expect(line?.a_over_b[0]?.word).toBe('the');
    for (const w of [...(line?.a_over_b ?? []), ...(line?.b_over_a ?? [])])
      expect([w.word, w.count_a, w.count_b]).toEqual([w.word, withThe.get(w.word) ?? 0, withoutThe.get(w.word) ?? 0]);
  });

  it('answers one line per request of --requests, a refused one with its error and exit status 1', () => {
    const file = join(tmp.dir, 'keyness.jsonl');
    writeFileSync(
      file,
      '{"a":{"languages":["de"]},"b":{"languages":["en"]},"limit":3}\n{"a":{"year_min":2024},"b":"rest"}\n{"a":{},"b":"other"}\n',
    );
    const run = news('keyness', '--release', release, '--requests', file);
    expect(run.status).toBe(1);
    const lines = jsonLines(run.stdout);
    expect(lines).toHaveLength(3);
    expect((lines[0]?.a_over_b as unknown[]).length).toBe(3);
    expect((lines[0]?.a as { tokens: number }).tokens).toBe(sum(german));
    expect(lines[1]).toMatchObject({ error: { code: 'invalid_subcorpus' } });
    expect(lines[2]).toMatchObject({ error: { code: 'invalid_request' } });
  });
});
