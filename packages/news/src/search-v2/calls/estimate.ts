import { Type } from '@sinclair/typebox';
import { estimate } from '../estimate.ts';
import { estimateIntervals, resolveEstimate } from '../estimate-parts.ts';
import { V2_LIMITS } from '../limits.ts';
import {
  closed,
  dedupe,
  filters,
  indexVersion,
  nullable,
  query,
  sampling,
  selection,
  str,
  tuple,
} from '../schema/fields.ts';
import { defineV2Call, REFUSALS } from './define.ts';
import { estimateStoryCopies } from '../estimate-stories.ts';
import { STORY_COPIES_ARTICLES } from '../stories/sampled-stories.ts';

export const EstimateRequest = Type.Object(
  {
    ...selection,
    query: query(1),
    ...filters,
    ...dedupe,
    ...sampling(
      V2_LIMITS.estimateSampleDefault,
      V2_LIMITS.estimateSampleMax,
      `Ranks sampled when the query has more than ${V2_LIMITS.estimateExactRanks} occurrences (below that every rank is resolved and the answer is exact).`,
    ),
  },
  { title: 'EstimateRequest' },
);

/** Metadata fields `estimate` counts values of. `country` only where the release has an attribution table. */
export const FacetField = Type.Union([
  Type.Literal('language'),
  Type.Literal('lang'),
  Type.Literal('topic'),
  Type.Literal('source'),
  Type.Literal('country'),
]);

/** A count with its 95% interval; `low === value === high` when exact. */
export const Estimated = Type.Object(
  { value: Type.Integer(), low: Type.Integer(), high: Type.Integer() },
  {
    description: 'Point value and 95% interval (equal when exact).',
    ...closed,
  },
);

export const FacetValue = Type.Object(
  {
    value: Type.String(),
    occurrences: Type.Integer({ description: 'Matching occurrences with this value (estimated in sampled mode).' }),
    articles: Type.Integer({ description: 'Matching articles with this value (estimated in sampled mode).' }),
    observed: Type.Integer({ description: 'Articles (exact) or sampled occurrences (sampled) the figures rest on.' }),
  },
  closed,
);

export const EstimatePeriod = Type.Object(
  {
    period: Type.String(),
    occurrences: Type.Integer(),
    stories: Type.Optional(
      Type.Integer({
        description:
          'With dedupe: matching stories whose first matching article (release order) is in this period (sampled mode: the estimate, a point value).',
      }),
    ),
  },
  closed,
);

export const EstimateAnswer = Type.Object(
  {
    index_version: indexVersion,
    query: Type.String(),
    mode: Type.Union([Type.Literal('exact'), Type.Literal('sampled')]),
    total_occurrences: Type.Integer({ description: 'Occurrences before filters (exact).' }),
    resolved_ranks: Type.Integer({ description: 'All ranks (exact) or the sample size.' }),
    seed: Type.Integer(),
    confidence: Type.Number(),
    matching_occurrences: Estimated,
    matching_articles: Estimated,
    matching_stories: Type.Optional(
      Type.Object(Estimated.properties, {
        description:
          "With dedupe: distinct stories among the matching articles, with its 95% interval (equal ends when exact; past the bound a Horvitz–Thompson estimate from the same sample, each draw weighed by its story's matching articles).",
        ...closed,
      }),
    ),
    facets: Type.Record(Type.String(), Type.Array(FacetValue), {
      description:
        'Top 20 values of language, lang, topic, source and (with an attribution table) country among matching articles.',
    }),
    periods: Type.Array(EstimatePeriod, {
      description:
        'Matching occurrences per crawl period of the selected years, chronological, zeros included (exact, or the sample scaled to the total).',
    }),
  },
  { title: 'EstimateResponse', ...closed },
);

/** POST /api/v2/estimate (research addition): spread over workers in the three steps below (routing `estimate`). */
export const estimateCall = defineV2Call({
  request: EstimateRequest,
  answer: EstimateAnswer,
  route: {
    method: 'POST',
    path: '/estimate',
    cost: 'expensive',
    summary: `Occurrences and articles passing the metadata filters, with facet counts: exact up to ${V2_LIMITS.estimateExactRanks.toLocaleString('en')} occurrences, else estimated from a seeded uniform sample with 95% intervals.`,
    refusals: [
      REFUSALS.cpuLimit,
      {
        status: 422,
        description: `unknown_index, invalid_year_range, invalid_query, stories_unavailable (dedupe on a release without story files), query_too_expensive (dedupe past the exact bound when the sampled stories hold more than ${STORY_COPIES_ARTICLES.toLocaleString('en')} articles to test).`,
      },
      REFUSALS.noCountryTable,
    ],
  },
  routing: { by: 'estimate', of: (b) => b },
  run: estimate,
});

/** Step 1 of an estimate over several workers: each shard's candidate intervals. */
export const EstimateIntervals = Type.Object(
  {
    intervals: Type.Array(tuple<readonly [string, number, number]>([Type.String(), Type.Integer(), Type.Integer()])),
    facet_fields: Type.Array(FacetField),
    shard_ids: Type.Array(Type.String()),
  },
  closed,
);

export const estimateIntervalsCall = defineV2Call({
  request: EstimateRequest,
  answer: EstimateIntervals,
  route: null,
  routing: { by: 'internal' },
  run: estimateIntervals,
});

const FacetLabels = Type.Object(
  { language: str, lang: str, iptc_topic: str, hostname: str, sitename: str, country: str },
  closed,
);
export const ResolvedDoc = Type.Object(
  {
    shard_id: Type.String(),
    key: Type.String({ description: '`year:doc_ix`.' }),
    n: Type.Integer(),
    labels: nullable(FacetLabels),
    story: Type.Optional(Type.Integer({ description: 'With dedupe, where the article passes: its story id.' })),
  },
  closed,
);

/** Step 2: the draws (null: every rank, exact mode) resolved where their shards are. */
export const EstimateResolveRequest = Type.Object({
  request: EstimateRequest,
  draws: Type.Union([Type.Null(), Type.Array(tuple<readonly [string, number]>([Type.String(), Type.Integer()]))], {
    errorMessage: 'draws must be null or a list of [shard_id, rank]',
  }),
});

export const estimateResolveCall = defineV2Call({
  request: EstimateResolveRequest,
  answer: Type.Object({ resolved: Type.Array(ResolvedDoc) }, closed),
  route: null,
  routing: { by: 'internal' },
  run: async (release, body, work) => ({ resolved: await resolveEstimate(release, body.request, body.draws, work) }),
});

/** A story's matching articles on one worker (`StoryCopyCount`). */
export const StoryCopies = Type.Object(
  {
    story: Type.Integer({ minimum: 0 }),
    copies: Type.Integer({ minimum: 0 }),
    first: nullable(Type.Integer({ minimum: 0, description: 'Release number of the first matching article here.' })),
    period: nullable(Type.String({ description: "Crawl period of that article's shard." })),
  },
  closed,
);

/** Step 3, with dedupe past the bound: the sampled stories' matching articles on each worker's selected shards. */
export const estimateStoriesCall = defineV2Call({
  request: Type.Object({
    request: EstimateRequest,
    stories: Type.Array(Type.Integer({ minimum: 0 }), { maxItems: V2_LIMITS.estimateSampleMax }),
  }),
  answer: Type.Object({ copies: Type.Array(StoryCopies) }, closed),
  route: null,
  routing: { by: 'internal' },
  run: async (release, body, work) => ({
    copies: await estimateStoryCopies(release, body.request, body.stories, work),
  }),
});
