import { Type } from '@sinclair/typebox';
import { QUERY_LIMITS } from '../query/limits.ts';
import { nextCursor } from '../query/cursor.ts';
import { search } from '../query/search.ts';
import { SPANNING_STORIES_MAX } from '../query/dedupe.ts';
import type { SearchRequest as SearchBody, SearchPeriod, SearchResult } from '../query/types.ts';
import { REQUEST_BOUNDS } from '../limits.ts';
import {
  ArticleMetadata,
  closed,
  dedupe,
  filters,
  index,
  indexVersion,
  matching,
  nullable,
  sampling,
} from '../schema/fields.ts';
import { sumIntervals } from '../query/sample.ts';
import { listedWords } from '../query/expand.ts';
import { FacetCounter } from '../facets.ts';
import type { FacetField } from '../types.ts';
import { defineV2Call, REFUSALS, type CombineContext } from './define.ts';
import { estimatedStories, mergeSearchStories } from './dedupe-combine.ts';
import { STORY_COPIES_ARTICLES } from '../stories/sampled-stories.ts';
import { inArticleOrder, positionIn } from '../shard-order.ts';
import { FacetValue, StoryCopies } from './estimate.ts';
import { searchStoryCopies } from '../query/search-story-copies.ts';

const count = Type.Integer({ minimum: 0 });
const year = (which: string) =>
  Type.Optional(
    Type.Union([Type.Integer({ minimum: REQUEST_BOUNDS.yearMin, maximum: REQUEST_BOUNDS.yearMax }), Type.Null()], {
      default: null,
      description: `${which} crawl year (inclusive); omit for no bound.`,
    }),
  );

/**
 * `POST /api/v2/search` (issue 27): the selection and filters of `estimate`, with the query in the news query
 * language (text in `query`, or its JSON form in `query_tree`; the grammar is in /api-docs).
 */
export const SearchRequest = Type.Object(
  {
    index,
    year_min: year('First'),
    year_max: year('Last'),
    ...matching,
    ...filters,
    query: Type.Optional(
      nullable(
        Type.String({
          minLength: 1,
          maxLength: REQUEST_BOUNDS.queryMaxLength,
          description:
            'The query in text form: words, "phrases", AND, OR, NOT, parentheses, a NEAR/n b, word* (grammar in the API reference).',
        }),
      ),
    ),
    query_tree: Type.Optional(
      Type.Unknown({
        description: 'The query in JSON form (the query_tree of an answer); exactly one of query and query_tree.',
      }),
    ),
    page_size: Type.Optional(
      Type.Union([Type.Integer({ minimum: 0, maximum: QUERY_LIMITS.pageMax }), Type.Null()], {
        default: QUERY_LIMITS.pageDefault,
        description: 'Matching articles listed, the first in chronological order.',
      }),
    ),
    ...dedupe,
    cursor: Type.Optional(
      Type.Union([Type.String({ maxLength: 1000 }), Type.Null()], {
        default: null,
        description:
          'next_cursor of the previous page (same query and options): the page continues after it; 409 stale_index_version once the release changed.',
      }),
    ),
    ...sampling(
      QUERY_LIMITS.sampleDefault,
      QUERY_LIMITS.sampleMax,
      `Driver occurrences drawn when the query is past its exact bound (more than ${QUERY_LIMITS.locatedOccurrences.toLocaleString('en')} located occurrences, or candidate articles over ${QUERY_LIMITS.verifiedBytes / 1_048_576} MiB).`,
    ),
  },
  { title: 'SearchRequest' },
);

const StoryTallySchema = Type.Object(
  {
    size: count,
    population: count,
    sum: Type.Number({ minimum: 0 }),
    sum_sq: Type.Number({ minimum: 0 }),
    seen: count,
    shared: Type.Array(Type.Object({ story: count, u: Type.Number(), v: Type.Number() }, closed)),
  },
  {
    description:
      "Between workers only (a gateway's answer never has it): with dedupe past the bound over split years, this worker's sample sums for the story estimate; the shared stories are completed with their copies on every worker.",
    ...closed,
  },
);

const interval = Type.Object(
  { low: count, high: count },
  { description: '95% interval (both ends equal to the value when exact).', ...closed },
);

export const SearchAnswer = Type.Object(
  {
    index_version: indexVersion,
    query: Type.String({ description: 'The query in canonical text form.' }),
    query_tree: Type.Unknown({ description: 'The query in JSON form, as evaluated.' }),
    notes: Type.Array(Type.String(), { description: 'Normalisations made, e.g. spaces trimmed from a phrase.' }),
    articles: Type.Integer({
      minimum: 0,
      description: 'Matching articles in the selected years that pass the filters.',
    }),
    stories: Type.Optional(
      Type.Integer({
        minimum: 0,
        description:
          'With dedupe: distinct stories among the matching articles; following and page then count and list stories.',
      }),
    ),
    stories_interval: Type.Optional(
      Type.Object(
        { low: count, high: count },
        {
          description:
            "With dedupe: the 95% interval of stories (both ends equal to it when exact). Past the exact bound stories is a Horvitz–Thompson estimate from the same sample as articles: a draw of a matching article weighs 1/(k·m), k its driver occurrences and m its story's matching articles in the whole selection, counted from the story's articles.",
          ...closed,
        },
      ),
    ),
    exact: Type.Boolean({
      description:
        'False when estimated from a seeded sample past the work bound; articles is then the point estimate.',
    }),
    interval,
    sample: nullable(
      Type.Object(
        {
          size: count,
          seed: count,
          population: Type.Integer({ minimum: 0, description: 'Driver occurrences the sample was drawn from.' }),
        },
        { description: 'The sample an estimate rests on (sizes summed over workers); null when exact.', ...closed },
      ),
    ),
    by_shard: Type.Array(Type.Object({ shard_id: Type.String(), year: Type.String(), articles: count }, closed)),
    periods: Type.Array(
      Type.Object(
        { period: Type.String(), year: Type.String(), articles: count, interval, shard_ids: Type.Array(Type.String()) },
        closed,
      ),
      { description: 'Chronological, zeros included.' },
    ),
    expansions: Type.Array(
      Type.Object(
        {
          term: Type.String(),
          words: Type.Array(Type.Object({ word: Type.String(), occurrences: count }, closed)),
        },
        closed,
      ),
      {
        description: `What each word* stands for in the selected years, read from the index: the words starting with the prefix and their occurrences (at most ${QUERY_LIMITS.expansions} per term).`,
      },
    ),
    facets: Type.Record(Type.String(), Type.Array(FacetValue), {
      description:
        'The estimate facets (language, lang, topic, source and, with an attribution table, country) over the matching articles: every value, most occurrences of the positive terms first.',
    }),
    following: Type.Integer({
      minimum: 0,
      description:
        'Matching articles after the cursor (all without one); the page is their first page_size. When sampled: the distinct matches the sample saw (the same seed draws them again for the next page).',
    }),
    page: Type.Array(
      Type.Object(
        {
          shard_id: Type.String(),
          year: Type.String(),
          doc_ix: count,
          metadata: nullable(ArticleMetadata),
          first: Type.Object(
            { term: Type.String(), offset: count, left: Type.String(), match: Type.String(), right: Type.String() },
            { description: 'First occurrence of a positive term, with context.', ...closed },
          ),
          copies: Type.Optional(
            Type.Integer({
              minimum: 1,
              description:
                "With dedupe: matching articles of this article's story (itself included). When sampled the page lists one article per story the sample saw (its earliest sampled match), and copies still counts all of the story's matching articles.",
            }),
          ),
          story: Type.Optional(
            Type.Integer({
              minimum: 0,
              description:
                "With dedupe: the story's release-wide id (the same on every worker); POST /api/v2/search/copies lists its matching articles.",
            }),
          ),
        },
        closed,
      ),
    ),
    next_cursor: Type.Union([Type.String(), Type.Null()], {
      description: 'Send back as cursor for the next page; null on the last page.',
    }),
    spanning_stories: Type.Optional(
      Type.Array(Type.Object({ story: count, shard_id: Type.String(), doc_ix: count, copies: count }, closed), {
        description:
          "Between workers only (a gateway's answer never has it): with dedupe, the stories this worker counted that other workers' shards may also hold, each with its first match and copies here.",
      }),
    ),
    story_sample: Type.Optional(StoryTallySchema),
  },
  { title: 'SearchResponse', ...closed },
);

/**
 * One search answer from the answers of workers holding disjoint shards: article counts add up (an article lives in
 * one shard), periods split across workers are summed, facet values add up per value (each worker lists all), prefix
 * expansions add up per word, and the page is the first `page_size` matches in release order (each worker sent its
 * own first ones, so the merged first ones are among them). Workers' samples are independent, so estimated parts
 * add with their intervals' half-widths in quadrature (`sumIntervals`).
 */
export function combineSearch(
  parts: readonly SearchResult[],
  ctx: CombineContext,
  body: SearchBody,
  copies: ReadonlyMap<number, { readonly copies: number }> = new Map(),
): SearchResult {
  const pos = positionIn(ctx.order);
  const merged = mergeSearchStories(parts, body, pos);
  const estimated = estimatedStories(parts, copies);
  // Sampled: the page's copies of a story several workers hold are its matching articles on all of them.
  const stories =
    merged === undefined
      ? undefined
      : {
          ...merged,
          page: merged.page.map((a) =>
            a.story === undefined || !copies.has(a.story) ? a : { ...a, copies: copies.get(a.story)?.copies },
          ),
        };
  const first = parts[0];
  const periods = new Map<string, { period: string; year: string; parts: SearchPeriod[]; shard_ids: string[] }>();
  const expansions = new Map<string, Map<string, number>>();
  const facets = new FacetCounter(Object.keys(first?.facets ?? {}) as FacetField[], { shownOnly: true });
  for (const p of parts) {
    for (const [field, values] of Object.entries(p.facets))
      for (const v of values) facets.merge(field as FacetField, v);
    for (const t of p.periods) {
      const m = periods.get(t.period);
      if (m === undefined)
        periods.set(t.period, { period: t.period, year: t.year, parts: [t], shard_ids: [...t.shard_ids] });
      else {
        m.parts.push(t);
        m.shard_ids.push(...t.shard_ids);
      }
    }
    for (const e of p.expansions) {
      let words = expansions.get(e.term);
      if (words === undefined) expansions.set(e.term, (words = new Map()));
      for (const w of e.words) words.set(w.word, (words.get(w.word) ?? 0) + w.occurrences);
    }
  }
  for (const m of periods.values()) m.shard_ids.sort((a, b) => pos(a) - pos(b));
  const following = stories?.following ?? parts.reduce((n, p) => n + p.following, 0);
  const page = (stories?.page ?? parts.flatMap((p) => p.page).sort(inArticleOrder(pos))).slice(
    0,
    body.page_size ?? QUERY_LIMITS.pageDefault,
  );
  const sampled = parts.flatMap((p) => (p.sample === null ? [] : [p.sample]));
  // An estimate's interval sums (value, low, high) of independent parts; an exact sum keeps its zero width.
  const sum = (xs: readonly { articles: number; interval: { low: number; high: number } }[]) =>
    sumIntervals(xs.map((x) => ({ value: x.articles, ...x.interval })));
  return {
    index_version: ctx.indexVersion,
    query: first?.query ?? '',
    query_tree: first?.query_tree ?? null,
    notes: first?.notes ?? [],
    articles: parts.reduce((n, p) => n + p.articles, 0),
    ...(stories === undefined
      ? {}
      : estimated === undefined
        ? { stories: stories.stories, stories_interval: { low: stories.stories, high: stories.stories } }
        : { stories: estimated.value, stories_interval: { low: estimated.low, high: estimated.high } }),
    exact: sampled.length === 0,
    interval: sum(parts),
    sample:
      sampled.length === 0
        ? null
        : {
            size: sampled.reduce((n, s) => n + s.size, 0),
            seed: sampled[0]?.seed ?? 1,
            population: sampled.reduce((n, s) => n + s.population, 0),
          },
    by_shard: parts.flatMap((p) => p.by_shard).sort((a, b) => pos(a.shard_id) - pos(b.shard_id)),
    periods: [...periods.values()]
      .sort((a, b) => pos(a.shard_ids[0] ?? '') - pos(b.shard_ids[0] ?? ''))
      .map((m) => ({
        period: m.period,
        year: m.year,
        articles: m.parts.reduce((n, t) => n + t.articles, 0),
        interval: sum(m.parts),
        shard_ids: m.shard_ids,
      })),
    facets: facets.top(Number.POSITIVE_INFINITY, 1),
    expansions: [...expansions].map(([term, words]) => ({
      term,
      words: listedWords(words),
    })),
    following,
    page,
    next_cursor: nextCursor(ctx.indexVersion, following, page),
  };
}

/** POST /api/v2/search (issue 27; search-v2/DESIGN.md, "Query language"). */
export const searchCall = defineV2Call({
  request: SearchRequest,
  answer: SearchAnswer,
  route: {
    method: 'POST',
    path: '/search',
    cost: 'expensive',
    summary:
      'Articles matching a query of the query language (words, "phrases", AND, OR, NOT, parentheses, NEAR/n, word*; see "Query language" above): how many, per shard and crawl period, what each word* stands for (from the index), facets, and the first page_size of them with the first occurrence of a positive term. Exact within the work bound, else estimated from a seeded sample with 95% intervals (exact: false).',
    refusals: [
      REFUSALS.stale,
      REFUSALS.cpuLimit,
      {
        status: 422,
        description: `invalid_query (with position for syntax errors; NOT-only queries; NEAR between a title: term and an article term), query_too_expensive (a sample whose distinct articles hold more than the verified-bytes bound, the CPU allowance, or with dedupe past the exact bound when the sampled stories hold more than ${STORY_COPIES_ARTICLES.toLocaleString('en')} articles to test), query_too_complex (terms or prefix expansions, with limit), unknown_index, invalid_year_range, headlines_not_indexed (title: on a release built without a headline index), stories_unavailable (dedupe on a release without story files: rebuild with stories), query_too_expensive (dedupe over workers that split the selected years, when one worker holds more than ${SPANNING_STORIES_MAX.toLocaleString('en')} stories that others may share).`,
      },
      REFUSALS.noCountryTable,
    ],
  },
  routing: { by: 'search', of: (b) => b, combine: combineSearch },
  run: (release, body, work) => search(release, body satisfies SearchBody, work),
});

/** Internal, with dedupe past the bound over split years: the named stories' matching articles on one worker. */
export const searchStoriesCall = defineV2Call({
  request: Type.Object({
    request: SearchRequest,
    stories: Type.Array(Type.Integer({ minimum: 0 }), { maxItems: SPANNING_STORIES_MAX }),
  }),
  answer: Type.Object({ copies: Type.Array(StoryCopies) }, closed),
  route: null,
  routing: { by: 'internal' },
  run: async (release, body, work) => ({
    copies: await searchStoryCopies(release, body.request satisfies SearchBody, body.stories, work),
  }),
});
