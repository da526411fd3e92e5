import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRelease, type OpenRelease, type ReleaseIndex } from '../src/release/index.ts';
import { estimate } from '../src/search-v2/index.ts';
import type { StoryTable } from '../src/stories/index.ts';
import { corpusFiles, readJsonlGz } from './support/corpora.ts';
import { sharedRelease } from './support/shared-release.ts';
import { bruteExactStories, releaseOrder } from './support/story-brute.ts';

// Every query is sampled: the exact bound is 0 occurrences (the real one is 20,000).
const SAMPLED = 0;
const SEEDS = Array.from({ length: 100 }, (_, i) => i + 1);

let real: OpenRelease;
let table: StoryTable;
let records: { year: string; docIx: number; text: Buffer; warc_date: string }[];
afterAll(() => real?.close());

beforeAll(async () => {
  real = await openRelease((await sharedRelease({ inputs: corpusFiles() })).dir, { mode: 'disk' });
  const stories = (real.indexes.get('news') as ReleaseIndex).stories;
  if (!stories) throw new Error('the shared release has no story files');
  table = stories;
  records = releaseOrder(corpusFiles().flatMap((f) => readJsonlGz(f) as { text: string; warc_date: string }[])).map(
    ({ record, year, docIx }) => ({ year, docIx, text: Buffer.from(record.text), warc_date: record.warc_date }),
  );
}, 180_000);

/** Distinct stories (the table's, in `mode`) of the articles holding the query's bytes, by a scan of the JSONL. */
function truthOf(query: string, mode: 'exact' | 'near', years: readonly [number, number] | null): number {
  const needle = Buffer.from(query);
  const ids = new Set<number | undefined>();
  for (const r of records) {
    if (years !== null && (Number(r.year) < years[0] || Number(r.year) > years[1])) continue;
    if (r.text.includes(needle)) ids.add(table.storyOf(r.year, r.docIx, mode));
  }
  return ids.size;
}

describe('estimate with dedupe past the exact bound on the real corpora', () => {
  it.each([
    ['oil', 'exact', null],
    ['oil', 'near', null],
    ['Regierung', 'near', null],
    ['said', 'exact', [1987, 1987]],
    ['の', 'near', null],
  ] as const)(
    'the 95%% interval of %s (%s stories) holds the brute-force count in at least 93 of 100 seeds',
    async (query, mode, years) => {
      const truth = truthOf(query, mode, years);
      const articles = records.filter((r) => r.text.includes(Buffer.from(query))).length;
      if (mode === 'exact') {
        // The table's exact stories are the groups of equal text (checked independently of it here).
        const byText = bruteExactStories(
          records.map((r) => ({ year: r.year, text: r.text, meta: { warc_date: r.warc_date } })),
          query,
          years?.[0] ?? null,
          years?.[1] ?? null,
        );
        expect(truth).toBe(byText.total);
      }
      // Not vacuous: copies merge some of the matching articles.
      expect(truth).toBeLessThan(articles);
      let held = 0;
      for (const seed of SEEDS) {
        const r = await estimate(
          real,
          {
            index: 'news',
            query,
            dedupe: mode,
            sample_size: 1000,
            seed,
            ...(years === null ? {} : { year_min: years[0], year_max: years[1] }),
          },
          undefined,
          SAMPLED,
        );
        expect(r.mode).toBe('sampled');
        const s = r.matching_stories ?? { value: -1, low: -1, high: -1 };
        if (s.low <= truth && truth <= s.high) held++;
      }
      expect(held).toBeGreaterThanOrEqual(93);
    },
    300_000,
  );
});
