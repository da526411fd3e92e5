import { Type } from '@sinclair/typebox';
import { getDoc } from '../get-doc.ts';
import { V2_LIMITS } from '../limits.ts';
import {
  ArticleMetadata,
  closed,
  expectedIndexVersion,
  index,
  indexVersion,
  matching,
  nullable,
  query,
  tuple,
  rank,
  shardId,
} from '../schema/fields.ts';
import { byShard, defineV2Call, REFUSALS } from './define.ts';

export const GetDocRequest = Type.Object(
  {
    query: query(),
    index,
    shard_id: shardId,
    rank: rank("A rank inside the query's [start, end) interval of that shard."),
    expected_index_version: expectedIndexVersion,
    max_ctx_len: Type.Optional(
      Type.Integer({
        minimum: V2_LIMITS.maxCtxLenMin,
        maximum: V2_LIMITS.maxCtxLenMax,
        default: V2_LIMITS.maxCtxLenDefault,
        description: 'Context bytes on each side of the match; the window shrinks inward to whole UTF-8 characters.',
      }),
    ),
    full_text: Type.Optional(
      Type.Boolean({
        default: false,
        description: `The whole article (≤ ${V2_LIMITS.fullTextBytes} bytes, else 422 article_too_large).`,
      }),
    ),
    ...matching,
  },
  { title: 'GetDocV2Request' },
);

/** `[piece, null]` for context, `[match, "0"]` for an occurrence. */
export const Span = tuple<readonly [string, string | null]>([Type.String(), nullable(Type.String())]);

export const GetDocAnswer = Type.Object(
  {
    index_version: indexVersion,
    year: Type.String(),
    shard_id: Type.String(),
    rank: Type.Integer(),
    doc_ix: Type.Integer(),
    doc_len: Type.Integer({ description: 'Article bytes.' }),
    disp_len: Type.Integer({ description: 'Bytes of text.' }),
    needle_offset: Type.Integer({ description: 'Byte offset of the match in text.' }),
    text: Type.String(),
    spans: Type.Array(Span),
    metadata: ArticleMetadata,
  },
  { title: 'GetDocV2Response', ...closed },
);

/** POST /api/v2/get_doc (spec §4 v2). */
export const getDocCall = defineV2Call({
  request: GetDocRequest,
  answer: GetDocAnswer,
  route: {
    method: 'POST',
    path: '/get_doc',
    cost: 'cheap',
    summary: 'The article holding one occurrence: a window, or with full_text the whole article, with full metadata.',
    refusals: [
      REFUSALS.cpuLimit,
      REFUSALS.stale,
      {
        status: 422,
        description: `article_too_large (full_text over ${V2_LIMITS.fullTextBytes} bytes), rank_out_of_range, unknown_shard.`,
      },
    ],
  },
  routing: byShard,
  run: getDoc,
});
