/**
 * Estimates past the work bound for queries with `title:` terms (issue 27): draws of headline occurrences weighted by
 * the article's driver occurrences in each field; the 95% intervals of 100 seeds against a brute force over the
 * titles and texts of Reuters-21578 and 10kGNAD (a release built by the real builder, with its headline indexes).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRelease, openRelease, type OpenRelease } from '../src/release/index.ts';
import { bruteMatches, type BruteArticle } from '../src/search-v2/query/brute-force.fixture.ts';
import { parseQuery, search } from '../src/search-v2/query/index.ts';
import { CORPORA_DIR, readJsonlGz } from './support/corpora.ts';
import { tempDir } from './support/fixtures.ts';

const INPUTS = ['10kgnad-de', 'reuters21578-en'].map((c) => join(CORPORA_DIR, c, `${c}.jsonl.gz`));
// Every query is past this bound, so every answer is a sample (the real bound is 2,000,000 occurrences).
const SAMPLED = { locatedOccurrences: 0, verifiedBytes: 64 * 1_048_576 };

describe('search with title: terms past its work bound (Reuters-21578 and 10kGNAD)', () => {
  const tmp = tempDir('search-headline-estimates-');
  let release: OpenRelease;
  let articles: BruteArticle[];
  beforeAll(async () => {
    articles = INPUTS.flatMap((f) =>
      readJsonlGz(f).map((r) => ({ text: r['text'] as string, title: (r['title'] as string | null) ?? '' })),
    );
    await buildRelease({ inputs: INPUTS, out: join(tmp.dir, 'r'), indexVersion: 'title-estimates', concurrency: 2 });
    release = await openRelease(join(tmp.dir, 'r'), { mode: 'memory' });
  }, 900_000);
  afterAll(() => {
    release?.close();
    tmp.cleanup();
  });

  it.each(['title:OIL', 'title:BANK OR oil', 'title:SAYS AND said', 'title:"OIL PRICES" OR title:"* BANK" NOT crude'])(
    'estimates %s: the 95%% intervals of 100 seeds hold the brute-force truth in at least 93',
    async (query) => {
      const tree = parseQuery(query).tree;
      const truth = articles.filter((a) => bruteMatches(a, tree, false)).length;
      expect(truth).toBeGreaterThan(0);
      let held = 0;
      for (let seed = 1; seed <= 100; seed++) {
        const r = await search(release, { index: 'news', query, sample_size: 400, seed }, undefined, SAMPLED);
        expect(r).toMatchObject({ exact: false, sample: { size: 400, seed } });
        if (r.interval.low <= truth && truth <= r.interval.high) held++;
      }
      expect(held).toBeGreaterThanOrEqual(93);
    },
    300_000,
  );
});
