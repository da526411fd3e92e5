import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenRelease, ReleaseIndex } from '../src/release/index.ts';
import { estimate, search } from '../src/search-v2/index.ts';
import type { SearchRequest } from '../src/search-v2/query/types.ts';
import { combineSearch } from '../src/search-v2/calls/search.ts';
import { storiesToComplete } from '../src/search-v2/calls/dedupe-combine.ts';
import { searchStoryCopies } from '../src/search-v2/query/search-story-copies.ts';
import { mergeStoryCopies } from '../src/search-v2/stories/sampled-stories.ts';
import { bruteMatches } from '../src/search-v2/query/brute-force.fixture.ts';
import { parseQuery } from '../src/search-v2/query/index.ts';
import type { StoryTable } from '../src/stories/index.ts';
import { bruteExactStories } from './support/story-brute.ts';
import { openStoryCorpora, type StoryCorpora } from './support/story-corpora.ts';

// Every query is sampled: the exact bound is 0 occurrences (the real one is 20,000).
const SAMPLED = 0;
const SEEDS = Array.from({ length: 100 }, (_, i) => i + 1);

let real: OpenRelease;
let table: StoryTable;
let records: StoryCorpora['records'];
afterAll(() => real?.close());

beforeAll(async () => {
  ({ real, table, records } = await openStoryCorpora());
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

// Every search is sampled: no driver occurrence is located exactly.
const SEARCH_SAMPLED = { locatedOccurrences: 0, verifiedBytes: 256 * 1_048_576 };

/** The release as a worker serving only the shards `holds` keeps sees it. */
function servedBy(release: OpenRelease, holds: (shardId: string) => boolean): OpenRelease {
  const index = release.indexes.get('news') as ReleaseIndex;
  return {
    ...release,
    indexes: new Map([['news', { ...index, shards: index.shards.filter((s) => holds(s.shardId)) }]]),
  };
}

/** The gateway's search over two workers, in process: their answers, the shared stories' copies, the merge. */
async function splitSearch(request: SearchRequest, holds: (shardId: string) => boolean) {
  const workers = [servedBy(real, holds), servedBy(real, (id) => !holds(id))];
  const parts = await Promise.all(workers.map((w) => search(w, request, undefined, SEARCH_SAMPLED)));
  const ids = storiesToComplete(parts);
  const copies = await Promise.all(workers.map((w) => searchStoryCopies(w, request, ids)));
  const order = (real.indexes.get('news') as ReleaseIndex).shards.map((s) => s.shardId);
  return {
    answer: combineSearch(parts, { order, indexVersion: real.indexVersion }, request, mergeStoryCopies(copies)),
    ids,
  };
}

describe('search with dedupe past the exact bound on the real corpora', () => {
  /** Distinct stories of the articles matching `query` under the reference semantics. */
  function searchTruth(query: string, mode: 'exact' | 'near'): number {
    const tree = parseQuery(query).tree;
    const ids = new Set<number | undefined>();
    for (const r of records)
      if (bruteMatches({ text: r.text.toString('utf8') }, tree, false)) ids.add(table.storyOf(r.year, r.docIx, mode));
    return ids.size;
  }

  it.each([
    ['oil AND prices', 'exact'],
    ['Regierung OR Bundesregierung', 'near'],
    ['said NOT oil', 'near'],
  ] as const)(
    'the 95%% interval of %s (%s stories) holds the brute-force count in at least 93 of 100 seeds, on one worker and on two splitting the months',
    async (query, mode) => {
      const truth = searchTruth(query, mode);
      // Odd crawl months on one worker, even on the other: most multi-copy stories span both.
      const holds = (id: string) => Number(id.slice(5, 7)) % 2 === 1;
      let one = 0;
      let split = 0;
      let completed = 0;
      for (const seed of SEEDS) {
        const request: SearchRequest = { index: 'news', query, dedupe: mode, sample_size: 1000, seed, page_size: 5 };
        const r = await search(real, request, undefined, SEARCH_SAMPLED);
        expect(r).toMatchObject({ exact: false });
        expect(r.story_sample).toBeUndefined();
        const i = r.stories_interval ?? { low: -1, high: -1 };
        if (i.low <= truth && truth <= i.high) one++;
        const s = await splitSearch(request, holds);
        completed += s.ids.length;
        expect(s.answer.story_sample).toBeUndefined();
        const j = s.answer.stories_interval ?? { low: -1, high: -1 };
        if (j.low <= truth && truth <= j.high) split++;
      }
      // Not vacuous: the split merged near stories across the workers (equal texts of these queries share a month).
      if (mode === 'near') expect(completed).toBeGreaterThan(0);
      expect(one).toBeGreaterThanOrEqual(93);
      expect(split).toBeGreaterThanOrEqual(93);
    },
    600_000,
  );

  it('answers zero stories with an upper bound above zero when no sampled article passes the filters', async () => {
    const r = await search(
      real,
      { index: 'news', query: 'oil', dedupe: 'near', sources: ['nowhere.example'], sample_size: 200 },
      undefined,
      SEARCH_SAMPLED,
    );
    expect(r).toMatchObject({ exact: false, articles: 0, stories: 0, page: [] });
    expect(r.stories_interval?.low).toBe(0);
    expect(r.stories_interval?.high).toBeGreaterThan(0);
  });
});
