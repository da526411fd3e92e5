import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultSyntheticCorpusOptions, writeSyntheticCorpus } from '../src/corpus/index.ts';
import { tempDir } from './support/fixtures.ts';

const NEWS = fileURLToPath(new URL('../bin/news.js', import.meta.url));
const tmp = tempDir('cli-build-count-');
afterAll(() => tmp.cleanup());

const news = (...args: string[]) =>
  spawnSync(process.execPath, [NEWS, ...args], { encoding: 'utf8', timeout: 120_000 });
const jsonLines = (text: string): Record<string, unknown>[] =>
  text
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('the news CLI', () => {
  const corpus = join(tmp.dir, 'demo.jsonl.gz');
  const release = join(tmp.dir, 'release');

  it('generates a synthetic corpus, builds a release and counts queries in it', () => {
    const gen = news('demo-corpus', '--out', corpus, '--bytes', '400000', '--seed', '7');
    expect(gen.status).toBe(0);
    expect(jsonLines(gen.stdout)[0]).toMatchObject({ out: corpus, text_bytes: expect.any(Number) });

    const build = news('build', '--input', corpus, '--out', release, '--index-version', 'cli-1', '--period', 'year');
    expect(build.status, build.stderr).toBe(0);
    const summary = jsonLines(build.stdout)[0];
    expect(summary).toMatchObject({
      index_version: 'cli-1',
      index: 'news',
      documents: expect.any(Number),
      shards: 6,
      skipped: 0,
    });
    // Progress and logs go to stderr as JSON lines when stderr is not a terminal.
    const logs = jsonLines(build.stderr);
    expect(logs.some((l) => (l['progress'] as { phase?: string } | undefined)?.phase === 'index')).toBe(true);

    const queries = join(tmp.dir, 'queries.txt');
    writeFileSync(queries, 'SYNTHETIC\nno such string \u2603\n');
    const count = news(
      'count',
      '--release',
      release,
      '--year-min',
      '2020',
      '--year-max',
      '2021',
      '--queries',
      queries,
      'a',
    );
    expect(count.status, count.stderr).toBe(0);
    const lines = jsonLines(count.stdout);
    expect(lines.map((l) => l['query'])).toEqual(['a', 'SYNTHETIC', 'no such string \u2603']);
    for (const l of lines) {
      const byShard = l['by_shard'] as Record<string, number>;
      expect(Object.keys(byShard)).toEqual(['2020', '2021']);
      expect(l['count']).toBe(Object.values(byShard).reduce((a, b) => a + b, 0));
    }
    expect(lines[0]?.['count']).toBeGreaterThan(1000);
    expect(lines[2]?.['count']).toBe(0);

    const disk = news('count', '--release', release, '--disk', 'a');
    expect(jsonLines(disk.stdout)[0]?.['count']).toBeGreaterThan(lines[0]?.['count'] as number);

    // Matching options: a letter case-insensitively is every lower- and upper-case one; whole words are a subset.
    const letters = 'abcdefghijklmnopqrstuvwxyz'.split('');
    const upper = jsonLines(news('count', '--release', release, ...letters.map((c) => c.toUpperCase())).stdout).map(
      (l) => l['count'] as number,
    );
    const i = upper.findIndex((n) => n > 0);
    expect(i).toBeGreaterThan(-1);
    const c = letters[i] as string;
    const exact = jsonLines(news('count', '--release', release, c).stdout)[0]?.['count'] as number;
    const folded = news('count', '--release', release, '--ignore-case', c);
    expect(folded.status, folded.stderr).toBe(0);
    expect(jsonLines(folded.stdout)[0]?.['count']).toBe(exact + (upper[i] ?? 0));
    const word = news('count', '--release', release, '--whole-word', '--disk', c);
    expect(word.status, word.stderr).toBe(0);
    expect(jsonLines(word.stdout)[0]?.['count']).toBeLessThan(exact);
    const refused = news('count', '--release', release, '--whole-word', '東京');
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/whole_word needs words separated/);
  });

  it('search prints one JSON line per query with articles, exact and by_shard; a refused query its error line', () => {
    const file = join(tmp.dir, 'search-queries.txt');
    writeFileSync(file, 'e NOT ä\ne   OR " ä "\n');
    const run = news(
      'search',
      '--release',
      release,
      '--year-min',
      '2020',
      '--year-max',
      '2021',
      '--queries',
      file,
      'e',
      'e ä',
    );
    expect(run.status, run.stderr).toBe(0);
    const [eOnly, both, eNotA, either] = jsonLines(run.stdout);
    expect([eOnly, both, eNotA, either].map((l) => l?.['query'])).toEqual(['e', 'e AND ä', 'e AND NOT ä', 'e OR "ä"']);
    for (const l of [eOnly, both, eNotA, either]) {
      const byShard = l?.['by_shard'] as Record<string, number>;
      expect(Object.keys(byShard)).toEqual(['2020', '2021']);
      expect(l?.['articles']).toBe(Object.values(byShard).reduce((a, b) => a + b, 0));
      expect(l?.['exact']).toBe(true);
      expect(l).toMatchObject({ interval: { low: l?.['articles'], high: l?.['articles'] }, sample: null });
    }
    expect(both?.['articles']).toBeGreaterThan(0);
    expect(eNotA?.['articles']).toBeGreaterThan(0);
    // Every article with "e" either has "ä" or has not.
    expect((both?.['articles'] as number) + (eNotA?.['articles'] as number)).toBe(eOnly?.['articles']);
    expect(either?.['articles']).toBeGreaterThanOrEqual(eOnly?.['articles'] as number);
    expect(either?.['notes']).toEqual(['leading or trailing spaces removed from the phrase at position 8']);

    const refused = news('search', '--release', release, 'NOT e', 'e');
    expect(refused.status).toBe(1);
    const [error, ok] = jsonLines(refused.stdout);
    expect(error).toMatchObject({ query: 'NOT e', error: { code: 'invalid_query' } });
    expect(ok?.['articles']).toBeGreaterThan(0);
  });

  it('search answers title: from the headline index: every synthetic headline holds SYNTHETIC, no article body does', () => {
    const documents = (
      JSON.parse(readFileSync(join(release, 'index-manifest.json'), 'utf8')) as {
        indexes: { totals: { documents: number } }[];
      }
    ).indexes[0]?.totals.documents;
    const run = news(
      'search',
      '--release',
      release,
      'title:SYNTHETIC',
      'SYNTHETIC',
      'title:"SYNTHETIC:" AND e',
      'title:SYNTHETIC NEAR/2 e',
    );
    expect(run.status).toBe(1);
    const [titles, body, both, near] = jsonLines(run.stdout);
    expect(titles).toMatchObject({ query: 'title:SYNTHETIC', articles: documents, exact: true });
    expect(body?.['articles']).toBe(0);
    expect(both?.['articles']).toBeGreaterThan(0);
    expect(near).toMatchObject({ query: 'title:SYNTHETIC NEAR/2 e', error: { code: 'invalid_query' } });
  });

  it('exits non-zero with a message that says what to do', () => {
    const missing = news('count', '--release', join(tmp.dir, 'nowhere'), 'x');
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(
      /news count: release .* has no index-manifest\.json; point --release at a complete release/,
    );
    const again = news('build', '--input', corpus, '--out', release, '--index-version', 'cli-1');
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/exists and is not empty; choose a new folder or pass --force/);
    const noQuery = news('count', '--release', release);
    expect(noQuery.status).toBe(2);
    expect(noQuery.stderr).toMatch(/no query given; pass QUERY\.\.\. or --queries FILE/);
  });

  it('removes the partial release when interrupted with SIGINT', async () => {
    const big = join(tmp.dir, 'big.jsonl.gz');
    await writeSyntheticCorpus(big, { ...defaultSyntheticCorpusOptions, textBytes: 12_000_000 });
    const out = join(tmp.dir, 'interrupted');
    const child = spawn(process.execPath, [NEWS, 'build', '--input', big, '--out', out, '--index-version', 'int-1'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let signalled = false;
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      // Interrupt once the build has started writing (its first progress line).
      if (!signalled && stderr.includes('"progress"')) {
        signalled = true;
        child.kill('SIGINT');
      }
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(signalled).toBe(true);
    expect(code).toBe(130);
    expect(stderr).toMatch(/build interrupted; nothing was written/);
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(tmp.dir).filter((f) => f.startsWith('interrupted'))).toEqual([]);
  });
});
