import { Type } from '@sinclair/typebox';
import { FILTER_NAMES } from '../filter-names.ts';
import { combineInfo, describeRelease } from '../info.ts';
import { closed, indexVersion, nullable } from '../schema/fields.ts';
import { defineV2Call } from './define.ts';

export const InfoRequest = Type.Object({
  index: Type.Optional(
    Type.Union([Type.String(), Type.Null()], { description: 'The index described (default: news, else the first).' }),
  ),
});

/** `no_values`: the field is empty in every article; `no_attribution_table`: the release has no country table. */
export const FilterSupport = Type.Object(
  {
    available: Type.Boolean(),
    reason: Type.Union([Type.Literal('no_values'), Type.Literal('no_attribution_table'), Type.Null()]),
  },
  closed,
);

export const FilterSupportMap = Type.Object(
  Object.fromEntries(FILTER_NAMES.map((name) => [name, FilterSupport])) as Record<
    (typeof FILTER_NAMES)[number],
    typeof FilterSupport
  >,
  {
    description:
      'Which metadata filters this index can serve (research addition): a filter whose field is empty in every article (reason no_values), ' +
      'or countries without an attribution table (no_attribution_table), selects nothing; clients should disable it and say why.',
    ...closed,
  },
);

export const ShardInfo = Type.Object(
  {
    shard_id: Type.String(),
    year: Type.String(),
    documents: Type.Integer(),
    bytes: Type.Integer({ description: 'Indexed text bytes, separators included.' }),
  },
  closed,
);

/** The worker's part of info; the gateway adds `description` and `hub_retrieval` (gateway/v2). */
export const InfoAnswer = Type.Object(
  {
    name: Type.String(),
    index_version: indexVersion,
    document_count: Type.Integer(),
    date_range: Type.Object(
      { first: nullable(Type.String()), last: nullable(Type.String()) },
      { description: 'Crawl periods of the first and last loaded shard.', ...closed },
    ),
    shards: Type.Array(ShardInfo),
    available_indexes: Type.Array(Type.String()),
    filters: FilterSupportMap,
  },
  { title: 'InfoV2Answer', ...closed },
);

/** GET /api/v2/info (spec §4 v2); `?index=` names the index. */
export const infoCall = defineV2Call({
  request: InfoRequest,
  answer: InfoAnswer,
  route: {
    method: 'GET',
    path: '/info',
    cost: 'cheap',
    summary: 'What the worker has loaded (shards, crawl range, documents) and the retrieval recipe.',
    refusals: [],
  },
  routing: { by: 'index', of: (b) => ({ index: b.index ?? null }), combine: combineInfo },
  run: (release, body) => describeRelease(release, body.index ?? undefined),
});
