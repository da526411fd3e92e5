import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readJsonlGz } from './support/corpora.ts';
import { tempDir } from './support/fixtures.ts';
import { jsonLines, runNewsSync as news } from './support/news-cli.ts';

const tmp = tempDir('cli-stories-');
afterAll(() => tmp.cleanup());

describe('news demo-corpus --copies and news search --dedupe', () => {
  it('plants exact copies with a truth file, and search counts each copied story once', () => {
    const corpus = join(tmp.dir, 'copies.jsonl.gz');
    const gen = news('demo-corpus', '--out', corpus, '--bytes', '300000', '--copies', '0.3', '--copy-edits', '0');
    expect(gen.status, gen.stderr).toBe(0);
    const summary = jsonLines(gen.stdout)[0];
    expect(summary).toMatchObject({
      out: corpus,
      copies: expect.any(Number),
      truth: join(tmp.dir, 'copies.copies.jsonl'),
    });
    const truth = readFileSync(join(tmp.dir, 'copies.copies.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { copy: string; of: string });
    expect(truth).toHaveLength(summary?.['copies'] as number);

    const release = join(tmp.dir, 'release');
    const build = news('build', '--input', corpus, '--out', release, '--index-version', 'cli-stories-1');
    expect(build.status, build.stderr).toBe(0);
    expect(jsonLines(build.stdout)[0]?.['story_bytes']).toBeGreaterThan(0);

    // Reference: the copies whose (unedited) text matches the query are the articles that are not a story's first.
    const copies = new Set(truth.map((t) => t.copy));
    const records = readJsonlGz(corpus) as { text: string; warc_record_id: string }[];
    const matchingCopies = records.filter((r) => copies.has(r.warc_record_id) && r.text.includes('e')).length;
    expect(matchingCopies).toBeGreaterThan(10);
    for (const mode of ['exact', 'near']) {
      const run = news('search', '--release', release, '--dedupe', mode, 'e');
      expect(run.status, run.stderr).toBe(0);
      const line = jsonLines(run.stdout)[0] as { articles: number; stories: number };
      expect(Object.keys(line).slice(0, 3)).toEqual(['query', 'articles', 'stories']);
      expect(line.articles - line.stories).toBe(matchingCopies);
    }
    const plain = jsonLines(news('search', '--release', release, 'e').stdout)[0];
    expect(plain).not.toHaveProperty('stories');
  }, 120_000);

  it('refuses a share outside 0–1 and an unknown dedupe mode', () => {
    const bad = news('demo-corpus', '--out', join(tmp.dir, 'x.jsonl.gz'), '--copies', '1.5');
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toMatch(/--copies 1.5 must be a share between 0 and 1/);
    const mode = news('search', '--release', join(tmp.dir, 'release'), '--dedupe', 'fuzzy', 'e');
    expect(mode.status).not.toBe(0);
    expect(mode.stderr).toMatch(/fuzzy/);
  });
});
