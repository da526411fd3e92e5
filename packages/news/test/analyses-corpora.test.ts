/**
 * The word analyses (issue 28) on the real corpora: releases of both index kinds built by the real builder,
 * answers checked against a brute-force streaming scan of the corpora's JSONL with the same word segmenter
 * (test/support/analyses-brute.ts); the HTTP route through a real worker and gateway.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countInArticle } from '../src/matching/index.ts';
import { openRelease, type OpenRelease } from '../src/release/index.ts';
import { filteredFrequencies } from '../src/search-v2/collocations/index.ts';
import { ANALYSIS_LIMITS } from '../src/search-v2/ngrams/limits.ts';
import {
  collocations,
  ngrams,
  scoresOf,
  type CollocationsRequestWire,
  type NgramsRequestWire,
} from '../src/search-v2/index.ts';
import {
  bruteContinuations,
  bruteSegmentCounts,
  bruteWindows,
  scanJsonl,
  type BruteArticle,
  type BruteNgramsOptions,
  type SegmentCountSpec,
} from './support/analyses-brute.ts';
import { SHARED_VERSION as VERSION, sharedRelease } from './support/shared-release.ts';
import { corpusFiles, startV2Processes, v2, type V2Processes } from './v2-support.ts';

let articles: BruteArticle[];
const releases: Record<'sa' | 'compressed', OpenRelease | undefined> = { sa: undefined, compressed: undefined };
let stack: V2Processes;

beforeAll(async () => {
  const inputs = corpusFiles();
  const built = {
    sa: await sharedRelease({ inputs, kind: 'sa' }),
    compressed: await sharedRelease({ inputs, kind: 'compressed' }),
  };
  articles = [];
  for await (const a of scanJsonl(inputs)) articles.push(a);
  for (const kind of ['sa', 'compressed'] as const) {
    releases[kind] = await openRelease(built[kind].dir, {
      mode: 'memory',
      expectedIndexVersion: VERSION,
      verify: 'sizes',
    });
  }
  stack = await startV2Processes(built.sa);
}, 600_000);

afterAll(async () => {
  releases.sa?.close();
  releases.compressed?.close();
  await stack?.stop();
});

/** The brute-force distribution over the articles `keep` selects. */
function brute(query: string, o: BruteNgramsOptions, keep: (a: BruteArticle) => boolean = () => true) {
  const counts = new Map<string, number>();
  let inside = 0;
  let short = 0;
  for (const a of articles) {
    if (!keep(a)) continue;
    const r = bruteContinuations(a.text, query, o, counts);
    inside += r.inside;
    short += r.short;
  }
  return { counts, inside, short };
}

/** The brute-force list as the answer orders and cuts it: count descending, then words; the rest in `other`. */
function listed(counts: ReadonlyMap<string, number>, limit: number): { top: [string, number][]; other: number } {
  const sorted = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return { top: sorted.slice(0, limit), other: sorted.slice(limit).reduce((s, [, c]) => s + c, 0) };
}

const CASES: readonly (readonly [string, Omit<NgramsRequestWire, 'index'>, (a: BruteArticle) => boolean])[] = [
  ['oil prices → 1 word', { query: 'oil prices', direction: 'right', words: 1 }, () => true],
  ['said it → 2 words', { query: 'said it', direction: 'right', words: 2 }, () => true],
  ['← 3 words before "prices"', { query: 'prices', direction: 'left', words: 3 }, () => true],
  ['econom completed', { query: 'econom', direction: 'right', words: 1, complete: true }, () => true],
  [
    'Bundes completed, German only',
    { query: 'Bundes', direction: 'right', words: 2, complete: true, languages: ['de'] },
    (a) => a.language === 'de',
  ],
  ['東京 → 1 word', { query: '東京', direction: 'right', words: 1 }, () => true],
  ['← 1 word before 東京', { query: '東京', direction: 'left', words: 1 }, () => true],
  ['OIL case-insensitive', { query: 'OIL', direction: 'right', words: 1, case: 'insensitive' }, () => true],
  [
    'trade → 1 word, 1987 only',
    { query: 'trade', direction: 'right', words: 1, year_min: 1987, year_max: 1987 },
    (a) => a.year === 1987,
  ],
];

describe('ngrams against the brute-force scan of the corpora', { timeout: 300_000 }, () => {
  it.each(CASES)("%s: every continuation's count on both index kinds", async (_name, req, keep) => {
    const expected = brute(
      req.query,
      {
        direction: req.direction ?? 'right',
        words: req.words ?? 1,
        complete: req.complete ?? false,
        wordCase: req.case === 'insensitive' ? 'insensitive' : 'sensitive',
      },
      keep,
    );
    expect(expected.counts.size).toBeGreaterThan(3);
    for (const kind of ['sa', 'compressed'] as const) {
      const r = await ngrams(releases[kind] as OpenRelease, { index: 'news', limit: 1000, ...req });
      expect(r.mode).toBe('exact');
      const want = listed(expected.counts, 1000);
      expect(
        r.continuations.map((c) => [c.words.join('\u0000'), c.count]),
        kind,
      ).toEqual(want.top);
      expect(r.other).toBe(want.other);
      expect(r.inside_word).toBe(expected.inside);
      expect(r.too_short).toBe(expected.short);
    }
  });

  it('samples shards with more occurrences than the bound, reproducibly, within a few points of the exact shares', async () => {
    const expected = brute('the', { direction: 'right', words: 1 });
    const all = [...expected.counts.values()].reduce((a, b) => a + b, 0);
    const r = await ngrams(releases.sa as OpenRelease, {
      index: 'news',
      query: 'the',
      direction: 'right',
      words: 1,
      seed: 7,
    });
    expect(r.mode).toBe('sampled');
    expect(r.sampled_shards).toBeGreaterThan(0);
    expect(r.read_occurrences).toBeLessThan(r.total_occurrences);
    for (const c of r.continuations.slice(0, 5)) {
      expect(Math.abs(c.share - (expected.counts.get(c.words.join('\u0000')) ?? 0) / all)).toBeLessThan(0.02);
    }
    expect(
      await ngrams(releases.sa as OpenRelease, { index: 'news', query: 'the', direction: 'right', words: 1, seed: 7 }),
    ).toEqual(r);
  });
});

describe('POST /api/v2/ngrams', () => {
  it('answers as the engine does', async () => {
    const body = { index: 'news', query: 'oil prices', direction: 'right', words: 2 };
    const res = await v2(stack.url, 'ngrams', body);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(await ngrams(releases.sa as OpenRelease, body as NgramsRequestWire));
  });

  it.each([
    [{ query: 'oil', words: 4 }, 422],
    [{ query: 'oil', words: 0 }, 422],
    [{ query: '', words: 1 }, 422],
    [{ query: 'oil', direction: 'up' }, 422],
    [{ query: 'oil', direction: 'left', complete: true }, 422],
    [{ query: 'oil', limit: 1001 }, 422],
    [{ query: 'oil', year_min: 1990, year_max: 1980 }, 422],
  ])('refuses %j with %i', async (body, status) => {
    const res = await v2(stack.url, 'ngrams', { index: 'news', ...body });
    expect(res.status).toBe(status);
    expect(JSON.stringify(res.body)).toMatch(/detail/);
  });
});

const COLLOCATION_CASES: readonly (readonly [
  string,
  Omit<CollocationsRequestWire, 'index'>,
  (a: BruteArticle) => boolean,
])[] = [
  ['oil prices, 5 + 5', { query: 'oil prices', limit: 10 }, () => true],
  [
    'Bundesregierung, 3 + 2, German only, by MI',
    { query: 'Bundesregierung', left: 3, right: 2, languages: ['de'], sort_by: 'mi', limit: 10 },
    (a) => a.language === 'de',
  ],
  [
    '東京, 2 + 2, by position',
    { query: '東京', left: 2, right: 2, by_position: true, limit: 10, min_frequency: 5 },
    () => true,
  ],
  [
    'TRADE case-insensitive, 1987, by frequency',
    { query: 'TRADE', case: 'insensitive', year_min: 1987, year_max: 1987, sort_by: 'frequency', limit: 10 },
    (a) => a.year === 1987,
  ],
];

/** A collocation case's brute-force reference: the window counts and the subcorpus's segment counts. */
interface CollocationTruth {
  readonly fx: number;
  readonly candidates: readonly [string, number][];
  readonly segments: { counts: Map<string, number>; total: number };
}

/**
 * The references of every collocation case and the German word total, in one segmenting pass over the corpora:
 * segmenting is most of their cost, and the cases' subcorpora overlap (two take every article).
 */
async function collocationTruths(): Promise<{ cases: CollocationTruth[]; germanWords: number }> {
  const windowed = COLLOCATION_CASES.map(([, req, keep]) => {
    const wordCase = req.case === 'insensitive' ? 'insensitive' : 'sensitive';
    const windows = new Map<string, number>();
    let fx = 0;
    for (const a of articles) {
      if (keep(a)) fx += bruteWindows(a.text, req.query, req.left ?? 5, req.right ?? 5, wordCase, windows);
    }
    const candidates = [...windows]
      .filter(([, c]) => c >= (req.min_frequency ?? 2))
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, (req.limit ?? 50) * 2);
    const spec: SegmentCountSpec = { keep, words: new Set(candidates.map(([w]) => w)), wordCase };
    return { fx, candidates, spec };
  });
  const german: SegmentCountSpec = { keep: (a) => a.language === 'de', words: new Set(), wordCase: 'sensitive' };
  const counted = await bruteSegmentCounts(articles, [...windowed.map((w) => w.spec), german]);
  return {
    cases: windowed.map(({ fx, candidates }, i) => ({ fx, candidates, segments: counted[i]! })),
    germanWords: counted[windowed.length]!.total,
  };
}

describe('collocations against the brute-force scan of the corpora', { timeout: 600_000 }, () => {
  let truths: Awaited<ReturnType<typeof collocationTruths>>;
  beforeAll(async () => {
    truths = await collocationTruths();
  }, 600_000);

  it.each(COLLOCATION_CASES.map((c, i) => [c[0], c[1], i] as const))(
    '%s: window counts, subcorpus counts, scores and the list on both index kinds',
    async (_name, req, i) => {
      const limit = req.limit ?? 50;
      // f_y and n: the words as segments of the subcorpus's text (what the word-count tables hold).
      const { fx, candidates, segments } = truths.cases[i]!;
      const fy = segments.counts;
      for (const kind of ['sa', 'compressed'] as const) {
        const r = await collocations(releases[kind] as OpenRelease, { index: 'news', ...req });
        expect(r.mode).toBe('exact');
        expect(r.node_frequency).toBe(fx);
        const n = r.corpus_words.value;
        if (r.corpus_words.exact) expect(n).toBe(segments.total);
        // Whole shards: the word-count tables give f_y and n exactly; a metadata filter leaves them to estimates.
        expect(r.corpus_words.exact).toBe(req.languages === undefined);
        const expected = candidates.map(([word, fxy]) => {
          const f = fy.get(word) ?? 0;
          return { word, fxy, fy: f, ...scoresOf({ fxy, fx, fy: Math.max(f, fxy), n }) };
        });
        for (const c of r.collocates) {
          const e = expected.find((x) => x.word === c.word);
          expect(e, `${kind}: ${c.word}`).toBeDefined();
          expect(c.window_frequency, c.word).toBe(e?.fxy);
          if (c.frequency.exact) expect(c.frequency.value, c.word).toBe(e?.fy);
          else expect(Math.abs(c.frequency.value - (e?.fy ?? 0)) / (e?.fy ?? 1), c.word).toBeLessThan(0.1);
          if (c.frequency.exact && c.window_frequency === e?.fxy) expect(c.log_dice).toBeCloseTo(e.log_dice, 9);
          if (c.positions !== null) expect(c.positions.reduce((a, b) => a + b, 0)).toBe(c.window_frequency);
        }
        expect(r.collocates.length).toBe(Math.min(limit, expected.length));
        expect(r.collocates.length).toBeGreaterThan(3);
        if (
          r.collocates.every(
            (c) => c.frequency.exact && c.window_frequency === expected.find((x) => x.word === c.word)?.fxy,
          )
        ) {
          const key = req.sort_by ?? 'log_dice';
          const by = (x: (typeof expected)[number]) => (key === 'frequency' ? x.fxy : x[key]);
          const order = [...expected]
            .sort((a, b) => by(b) - by(a) || b.fxy - a.fxy || (a.word < b.word ? -1 : 1))
            .slice(0, limit);
          expect(r.collocates.map((c) => c.word)).toEqual(order.map((x) => x.word));
        }
      }
    },
  );

  it('estimates the words of a filtered subcorpus within 3% of the brute-force total', async () => {
    const r = await collocations(releases.sa as OpenRelease, {
      index: 'news',
      query: 'Bundesregierung',
      languages: ['de'],
      limit: 1,
    });
    const total = truths.germanWords;
    expect(Math.abs(r.corpus_words.value - total) / total).toBeLessThan(0.03);
  });

  it('counts filtered f_y the same through the index and through the German articles, as brute force does', async () => {
    const request = { index: 'news', query: 'Bundesregierung', languages: ['de'] };
    const listed = await collocations(releases.sa as OpenRelease, request);
    const words = listed.collocates.map((c) => c.word);
    const german = articles.filter((a) => a.language === 'de').map((a) => Buffer.from(a.text));
    const all = articles.map((a) => Buffer.from(a.text));
    const occurrences = (texts: readonly Buffer[], w: Buffer, wholeWord: boolean) =>
      texts.reduce((n, t) => n + countInArticle(t, [w], wholeWord), 0);
    let checked = 0;
    for (const kind of ['sa', 'compressed'] as const) {
      const release = releases[kind] as OpenRelease;
      const located = await filteredFrequencies(release, request, words, undefined, 'located');
      expect(await filteredFrequencies(release, request, words, undefined, 'text')).toEqual(located);
      const answer = await collocations(release, request);
      for (const c of answer.collocates) expect(c.frequency, c.word).toEqual(located.get(c.word));
      for (const w of words) {
        const bytes = Buffer.from(w);
        // At most the exact bound of candidates in all articles: no shard samples, the figure is a count.
        if (occurrences(all, bytes, false) > ANALYSIS_LIMITS.frequencyExactRanks) continue;
        expect(located.get(w)?.value, w).toBe(occurrences(german, bytes, true));
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(40);
  });

  it('gives each collocate an example occurrence whose window holds it', async () => {
    const r = await collocations(releases.sa as OpenRelease, { index: 'news', query: 'oil prices', limit: 5 });
    for (const c of r.collocates) {
      const res = await v2(stack.url, 'contexts', {
        index: 'news',
        expected_index_version: VERSION,
        query: 'oil prices',
        shard_id: c.example.shard_id,
        rank_from: c.example.rank,
        rank_to: c.example.rank + 1,
        context_bytes: 200,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const line = (res.body as { contexts: { left: string; right: string }[] }).contexts[0];
      expect(`${line?.left ?? ''} ${line?.right ?? ''}`).toContain(c.word);
    }
  });
});

describe('POST /api/v2/collocations', { timeout: 120_000 }, () => {
  it('answers as the engine does', async () => {
    // One crawl year (one shard): the worker's first analysis also segments each selected shard's word sample once.
    const body = {
      index: 'news',
      query: 'Bundesregierung',
      year_min: 2016,
      year_max: 2016,
      left: 3,
      right: 3,
      by_position: true,
    };
    const res = await v2(stack.url, 'collocations', body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual(await collocations(releases.sa as OpenRelease, body as CollocationsRequestWire));
  });

  it.each([
    [{ query: 'oil', left: 11 }, 422],
    [{ query: 'oil', right: -1 }, 422],
    [{ query: '' }, 422],
    [{ query: 'oil', sort_by: 'chi2' }, 422],
    [{ query: 'oil', limit: 201 }, 422],
    [{ query: 'oil', index: 'nope' }, 422],
  ])('refuses %j with %i', async (body, status) => {
    const res = await v2(stack.url, 'collocations', { index: 'news', ...body });
    expect(res.status).toBe(status);
    expect(JSON.stringify(res.body)).toMatch(/detail/);
  });
});
