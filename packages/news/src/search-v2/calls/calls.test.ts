import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Value } from '@sinclair/typebox/value';
import { beforeAll, describe, expect, it } from 'vitest';
import type { OpenRelease, ReleaseIndex } from '../../release/types.ts';
import { StoryTable } from '../../stories/index.ts';
import { WorkBudget } from '../../work-budget/index.ts';
import { ARTICLES, VERSION } from '../continuations.fixture.ts';
import { buildMemoryRelease } from '../memory-release.fixture.ts';
import { estimateIntervals } from '../estimate-parts.ts';
import { V2_ERROR_STATUS, type V2ErrorCode } from '../errors.ts';
import { V2_CALLS, v2CallOf, type V2AnswerOf, type V2Kind, type V2RequestOf } from './index.ts';

const selection = { index: 'news', query: 'Berlin', case: 'insensitive', whole_word: false } as const;
let release: OpenRelease;
/** The ranks of "Berlin" in the first shard, as a client pages them after find. */
let page: {
  index: string;
  expected_index_version: string;
  shard_id: string;
  rank_from: number;
  rank_to: number;
  query: string;
};
beforeAll(async () => {
  const wordCountsDir = mkdtempSync(join(tmpdir(), 'calls-words-'));
  release = await buildMemoryRelease(
    [...ARTICLES, { shard: '2017-01.p002', text: 'Berlin, Berlin und Berlin', meta: { scores: { iptc_topic: 0.5 } } }],
    { indexVersion: VERSION, wordCountsDir },
  );
  release = withOneStory(release);
  const found = (await V2_CALLS.v2_find.run(
    release,
    { index: 'news', query: 'Berlin' },
    WorkBudget.unlimited(),
  )) as V2AnswerOf<'v2_find'>;
  const [lo, hi] = found.segment_by_shard[0] ?? [0, 0];
  page = {
    index: 'news',
    expected_index_version: VERSION,
    shard_id: found.shard_ids[0] ?? '',
    rank_from: lo,
    rank_to: hi,
    query: 'Berlin',
  };
});
/** The release with story files in which every article is a copy of the first (story 0), for dedupe calls. */
function withOneStory(r: OpenRelease): OpenRelease {
  const index = r.indexes.get('news') as ReleaseIndex;
  const docs = new Map<string, number>();
  for (const s of index.shards) docs.set(s.year, (docs.get(s.year) ?? 0) + s.reader.stats.docCount);
  const total = [...docs.values()].reduce((a, b) => a + b, 0);
  let base = 0;
  const files = [...docs].map(([year, n]) => {
    const file = { year, base, releaseDocs: total, exact: new Uint32Array(n), near: new Uint32Array(n) };
    base += n;
    return file;
  });
  return { ...r, indexes: new Map([['news', { ...index, stories: new StoryTable(files) }]]) };
}
const estimateBody = { ...selection, languages: ['de'], sample_size: 100, seed: 3 };

/** One real request per call: the mapped type makes a new call fail to compile here until it has one. */
const SAMPLES: { readonly [K in V2Kind]: (r: OpenRelease) => V2RequestOf<K> } = {
  v2_find: () => selection,
  v2_count: () => selection,
  v2_timeline: () => selection,
  v2_get_doc: () => ({ ...page, rank: page.rank_from, max_ctx_len: 10, full_text: false }),
  v2_occurrences: () => page,
  v2_documents: () => ({ ...page, languages: ['de'] }),
  v2_contexts: () => ({ ...page, context_bytes: 8 }),
  v2_metadata: () => ({
    index: 'news',
    expected_index_version: VERSION,
    documents: [
      { year: '2017', doc_ix: 2 },
      { year: '2016', doc_ix: 0 },
    ],
  }),
  v2_estimate: () => estimateBody,
  v2_estimate_intervals: () => estimateBody,
  v2_estimate_resolve: (r) => ({
    request: estimateBody,
    draws: estimateIntervals(r, estimateBody).intervals.map(([shard, lo]) => [shard, lo] as const),
  }),
  v2_estimate_stories: () => ({ request: { ...estimateBody, dedupe: 'exact' }, stories: [0] }),
  v2_search_stories: () => ({ request: { index: 'news', query: 'Berlin OR Wien', dedupe: 'exact' }, stories: [0] }),
  v2_info: () => ({ index: null }),
  v2_search: () => ({ index: 'news', query: 'Berlin OR Wien', page_size: 2 }),
  v2_search_copies: () => ({
    index: 'news',
    query: 'Berlin OR Wien',
    dedupe: 'exact',
    story: 0,
    expected_index_version: VERSION,
    page_size: 2,
  }),
  v2_ngrams: () => ({ index: 'news', query: 'Berlin', direction: 'left', words: 1 }),
  v2_collocations: () => ({ index: 'news', query: 'Berlin', min_frequency: 1, by_position: true }),
  v2_frequencies: () => ({ index: 'news', periods: ['2017-01'], case: 'insensitive', limit: 3 }),
  v2_keyness: () => ({ index: 'news', a: { periods: ['2017'] }, b: { year_min: 2016, year_max: 2016 }, limit: 5 }),
};

describe('every v2 call answers what its answer schema declares', () => {
  it.each(Object.keys(V2_CALLS) as V2Kind[])('%s', async (kind) => {
    const call = v2CallOf(kind);
    const result = await call.run(release, SAMPLES[kind](release) as never, WorkBudget.unlimited());
    const answer: unknown = typeof result === 'string' ? JSON.parse(result) : result;
    // Not vacuous: every call finds something in the fixture.
    expect(JSON.stringify(answer)).toMatch(/Berlin|2016|2017|"count":[1-9]/);
    expect([...Value.Errors(call.answer, answer)].map((e) => `${e.path}: ${e.message}`)).toEqual([]);
  });

  it('refuses an answer with a field the schema does not declare', async () => {
    const found = await V2_CALLS.v2_find.run(release, selection, WorkBudget.unlimited());
    expect(Value.Check(V2_CALLS.v2_find.answer, { ...(found as object), extra: 1 })).toBe(false);
  });
});

describe('the refusals a call documents', () => {
  it('name error codes whose status (errors.ts) is the one documented', () => {
    const codes = Object.keys(V2_ERROR_STATUS) as V2ErrorCode[];
    for (const [kind, call] of Object.entries(V2_CALLS)) {
      for (const refusal of call.route?.refusals ?? []) {
        const named = codes.filter((code) => new RegExp(`\\b${code}\\b`).test(refusal.description));
        expect(named, `${kind}: ${refusal.description}`).not.toEqual([]);
        for (const code of named) expect(V2_ERROR_STATUS[code], `${kind}: ${code}`).toBe(refusal.status);
      }
    }
  });
});
