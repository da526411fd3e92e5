import { Type } from '@sinclair/typebox';
import { combineTimeline, timeline } from '../timeline.ts';
import { V2_LIMITS } from '../limits.ts';
import { closed, dedupe, indexVersion, nullable, query, sampling, selection } from '../schema/fields.ts';
import { STORY_COPIES_ARTICLES } from '../stories/sampled-stories.ts';
import { STORY_TIMELINE_OCCURRENCES } from '../stories/timeline-stories.ts';
import { defineV2Call, REFUSALS } from './define.ts';

const BOUND = STORY_TIMELINE_OCCURRENCES.toLocaleString('en');

/** A 95% interval of a story count (both ends equal to it when exact). */
const storyInterval = (of: string) =>
  Type.Object(
    { low: Type.Integer({ minimum: 0 }), high: Type.Integer({ minimum: 0 }) },
    { ...closed, description: `With dedupe: 95% interval of ${of} (both ends equal to it when stories_exact).` },
  );

export const TimelineRequest = Type.Object(
  {
    ...selection,
    query: query(1),
    ...dedupe,
    ...sampling(
      V2_LIMITS.estimateSampleDefault,
      V2_LIMITS.estimateSampleMax,
      `With dedupe: occurrences sampled to estimate the stories when the query has more than ${BOUND} in the selected years (below that every occurrence is located and the stories are exact).`,
    ),
    share: Type.Optional(
      Type.Boolean({
        default: false,
        description:
          'Also count the articles holding a match per period (articles_with_match, share_of_articles, their intervals and share_exact). Off by default: it locates up to 20,000 occurrences or reads a 400-article sample per shard, several times the cost of the counts.',
      }),
    ),
  },
  {
    title: 'TimelineRequest',
    description: "Occurrences per crawl period with the period's articles and text bytes, for normalised charts.",
  },
);

export const TimelinePeriod = Type.Object(
  {
    period: Type.String({ description: 'Crawl period (YYYY-MM or YYYY); parts of a split period are summed.' }),
    year: Type.String(),
    occurrences: Type.Integer(),
    articles: Type.Integer({ description: 'Articles crawled in the period.' }),
    text_bytes: Type.Integer({ description: 'UTF-8 text bytes of those articles (separators excluded).' }),
    shard_ids: Type.Array(Type.String(), { description: 'The shards (parts) the period is stored in.' }),
    words: Type.Optional(
      nullable(
        Type.Integer({
          description:
            "Word tokens of those articles (Unicode word segments with a letter or digit), from the release's word-count tables; null for a release built before them.",
        }),
      ),
    ),
    articles_with_match: Type.Optional(
      nullable(
        Type.Integer({
          description:
            'With share: articles of the period holding an occurrence that counts: exact when every part of the period has at most 20,000 candidate occurrences (each located), else estimated from a seeded sample of 400 articles per part (share_exact false); null only in answers of older workers.',
        }),
      ),
    ),
    share_of_articles: Type.Optional(
      nullable(
        Type.Number({
          description:
            "articles_with_match over articles (Media Cloud's attention measure); exact or estimated (share_exact), null with articles_with_match.",
        }),
      ),
    ),
    articles_with_match_interval: Type.Optional(
      nullable(
        Type.Object(
          { low: Type.Integer(), high: Type.Integer() },
          {
            ...closed,
            description: '95% interval of articles_with_match (both ends equal to it when exact).',
          },
        ),
      ),
    ),
    share_of_articles_interval: Type.Optional(
      nullable(
        Type.Object(
          { low: Type.Number(), high: Type.Number() },
          {
            ...closed,
            description: '95% interval of share_of_articles (both ends equal to it when exact).',
          },
        ),
      ),
    ),
    share_exact: Type.Optional(
      Type.Boolean({ description: 'False when articles_with_match and share_of_articles are sample estimates.' }),
    ),
    per_million_words: Type.Optional(
      nullable(
        Type.Number({
          description:
            'occurrences per million words of the period (comparable across scripts, unlike per byte); null with words.',
        }),
      ),
    ),
    stories: Type.Optional(
      Type.Integer({
        minimum: 0,
        description:
          'With dedupe: distinct stories whose first matching article (release order, in the selected years) was crawled in this period; exact periods add up to total_stories. Past the bound (stories_exact false) a Horvitz–Thompson estimate from the seeded sample, with its own interval.',
      }),
    ),
    stories_interval: Type.Optional(storyInterval('stories')),
    spanning_stories: Type.Optional(
      Type.Array(Type.Integer({ minimum: 0 }), {
        description:
          "Between workers only (a gateway's answer never has it): ids of the period's stories that other workers' shards may also hold.",
      }),
    ),
  },
  closed,
);

export const TimelineAnswer = Type.Object(
  {
    index_version: indexVersion,
    query: Type.String(),
    total_occurrences: Type.Integer(),
    total_stories: Type.Optional(
      Type.Integer({
        minimum: 0,
        description:
          'With dedupe: distinct stories among the articles with a match (past the bound the point estimate; stories_exact false).',
      }),
    ),
    total_stories_interval: Type.Optional(storyInterval('total_stories')),
    stories_exact: Type.Optional(
      Type.Boolean({
        description: `With dedupe: false when total_stories and each period's stories are estimates (more than ${BOUND} occurrences in the selected years); the occurrence, article and byte counts stay exact.`,
      }),
    ),
    stories_sample: Type.Optional(
      Type.Object(
        {
          size: Type.Integer({ description: 'Occurrences drawn (sample_size).' }),
          seed: Type.Integer(),
          occurrences: Type.Integer({ description: 'Candidate occurrences the draws are from.' }),
          confidence: Type.Number({ description: 'Of every stories interval: 0.95.' }),
        },
        {
          ...closed,
          description:
            "With stories_exact false: the seeded uniform sample of occurrences the stories are estimated from (as estimate's, each draw weighed by its story's matching articles).",
        },
      ),
    ),
    periods: Type.Array(TimelinePeriod, { description: 'Chronological; periods without a match are listed with 0.' }),
  },
  { title: 'TimelineResponse', ...closed },
);

/** POST /api/v2/timeline (research addition, search-v2/DESIGN.md). */
export const timelineCall = defineV2Call({
  request: TimelineRequest,
  answer: TimelineAnswer,
  route: {
    method: 'POST',
    path: '/timeline',
    cost: 'expensive',
    summary:
      'Occurrences per crawl period with the articles and text bytes of each period (for per-million-bytes or per-1,000-articles charts).',
    refusals: [
      REFUSALS.cpuLimit,
      {
        status: 422,
        description: `unknown_index, invalid_year_range, invalid_query, stories_unavailable (dedupe on a release without story files), query_too_expensive (dedupe past the ${BOUND}-occurrence bound when the sampled stories hold more than ${STORY_COPIES_ARTICLES.toLocaleString('en')} articles to test: use a smaller sample_size or narrow the years).`,
      },
    ],
  },
  routing: { by: 'timeline', of: (b) => b, combine: combineTimeline },
  run: timeline,
});
