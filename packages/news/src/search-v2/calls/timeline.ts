import { Type } from '@sinclair/typebox';
import { combineTimeline, timeline } from '../timeline.ts';
import { closed, dedupe, indexVersion, nullable, query, selection } from '../schema/fields.ts';
import { byYears, defineV2Call, REFUSALS } from './define.ts';

export const TimelineRequest = Type.Object(
  {
    ...selection,
    query: query(1),
    ...dedupe,
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
          'With dedupe: distinct stories whose first matching article (release order, in the selected years) was crawled in this period; periods add up to total_stories.',
      }),
    ),
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
      Type.Integer({ minimum: 0, description: 'With dedupe: distinct stories among the articles with a match.' }),
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
        description:
          'unknown_index, invalid_year_range, invalid_query, stories_unavailable (dedupe on a release without story files), query_too_expensive (dedupe with more than 1,000,000 occurrences to locate).',
      },
    ],
  },
  routing: byYears(combineTimeline),
  run: timeline,
});
