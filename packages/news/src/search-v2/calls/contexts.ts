import { Type } from '@sinclair/typebox';
import { contexts } from '../contexts.ts';
import { V2_LIMITS } from '../limits.ts';
import { closed, indexVersion, query, rankRange, str } from '../schema/fields.ts';
import { byShard, defineV2Call, REFUSALS } from './define.ts';

export const ContextsRequest = Type.Object(
  {
    ...rankRange,
    query: query(1),
    context_bytes: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: V2_LIMITS.contextBytesMax,
        default: V2_LIMITS.contextBytesDefault,
        description: 'Bytes of context on each side of the match, cut inward to whole UTF-8 characters.',
      }),
    ),
  },
  {
    title: 'ContextsRequest',
    description: `A concordance page: at most ${V2_LIMITS.contextsRanks} ranks of the query's interval in one shard.`,
  },
);

/** One concordance line: the match with its left and right context. */
export const ConcordanceLine = Type.Object(
  {
    rank: Type.Integer(),
    year: Type.String(),
    doc_ix: Type.Integer(),
    offset: Type.Integer({ description: 'Byte offset of the match in the article.' }),
    left: Type.String(),
    match: Type.String(),
    right: Type.String(),
    title: str,
    hostname: str,
  },
  closed,
);

export const ContextsAnswer = Type.Object(
  {
    index_version: indexVersion,
    shard_id: Type.String(),
    rank_from: Type.Integer(),
    rank_to: Type.Integer(),
    context_bytes: Type.Integer(),
    contexts: Type.Array(ConcordanceLine, { description: 'In rank order.' }),
  },
  { title: 'ContextsResponse', ...closed },
);

/** POST /api/v2/contexts (research addition, search-v2/DESIGN.md). */
export const contextsCall = defineV2Call({
  request: ContextsRequest,
  answer: ContextsAnswer,
  route: {
    method: 'POST',
    path: '/contexts',
    cost: 'expensive',
    summary: `Concordance: up to ${V2_LIMITS.contextsRanks.toLocaleString('en')} ranks of one shard as left context, match and right context (≤ ${V2_LIMITS.contextBytesMax} bytes each side) with title and hostname.`,
    refusals: [REFUSALS.cpuLimit, REFUSALS.stale, REFUSALS.ranks(V2_LIMITS.contextsRanks)],
  },
  routing: byShard,
  run: contexts,
});
