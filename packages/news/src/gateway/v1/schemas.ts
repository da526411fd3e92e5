import { Type, type Static } from '@sinclair/typebox';

/**
 * v1 request and response shapes (spec §4). These schemas validate requests (validation/validate-body.ts)
 * and generate the OpenAPI document and /api-docs, so the reference cannot drift from the checks.
 */

export const V1_BOUNDS = {
  queryMaxLength: 10_000,
  indexMaxLength: 100,
  indexPattern: '^[a-z0-9_]+$',
  yearMin: 1900,
  yearMax: 2200,
  maxCtxLenMin: 1,
  maxCtxLenMax: 10_000,
  maxCtxLenDefault: 1000,
} as const;

const query = (minLength?: number) =>
  Type.String({
    maxLength: V1_BOUNDS.queryMaxLength,
    ...(minLength === undefined ? {} : { minLength }),
    description: 'Phrase to match byte-exactly (case-sensitive) against the UTF-8 article text. Length in characters.',
  });
const index = Type.String({
  maxLength: V1_BOUNDS.indexMaxLength,
  pattern: V1_BOUNDS.indexPattern,
  description: 'Index name; `available_indexes` of GET /api/v1/info lists them.',
});
const year = (which: string) =>
  Type.Optional(
    Type.Union([Type.Integer({ minimum: V1_BOUNDS.yearMin, maximum: V1_BOUNDS.yearMax }), Type.Null()], {
      default: null,
      description: `${which} crawl year (inclusive). Omit or null for no bound; year_min > year_max is a 422.`,
    }),
  );

const common = {
  query: query(),
  index,
  year_min: year('First'),
  year_max: year('Last'),
};

export const CountRequest = Type.Object(common, { title: 'CountRequest' });
export const FindRequest = Type.Object({ ...common, query: query(1) }, { title: 'FindRequest' });
export const GetDocRequest = Type.Object(
  {
    ...common,
    s: Type.Integer({
      minimum: 0,
      description: "Position in the find result's `segment_by_shard` list (same query and years).",
    }),
    rank: Type.Integer({ minimum: 0, description: "A rank inside that shard's [start, end) interval from find." }),
    max_ctx_len: Type.Optional(
      Type.Integer({
        minimum: V1_BOUNDS.maxCtxLenMin,
        maximum: V1_BOUNDS.maxCtxLenMax,
        default: V1_BOUNDS.maxCtxLenDefault,
        description: 'Context bytes on each side of the match; the window shrinks inward to whole UTF-8 characters.',
      }),
    ),
  },
  { title: 'GetDocRequest' },
);

export type CountRequest = Static<typeof CountRequest>;
export type FindRequest = Static<typeof FindRequest>;
export type GetDocRequest = Static<typeof GetDocRequest>;

const latency = Type.Number({ description: 'Time spent in the gateway for this request, milliseconds.' });
const nullableString = (maxLength: number, extra: Record<string, unknown> = {}) =>
  Type.Union([Type.String({ maxLength, ...extra }), Type.Null()]);

export const CountResponse = Type.Object(
  {
    count: Type.Integer({
      description: 'Occurrences (overlapping) in the selected shards. The empty query counts text bytes.',
    }),
    latency_ms: latency,
  },
  { title: 'CountResponse' },
);

export const FindResponse = Type.Object(
  {
    count: Type.Integer({ description: 'Sum of the interval lengths.' }),
    segment_by_shard: Type.Array(Type.Array(Type.Integer(), { minItems: 2, maxItems: 2 }), {
      description: 'Per shard whose year lies in the range, chronologically: the half-open rank interval [start, end).',
    }),
    shard_years: Type.Optional(
      Type.Array(Type.String(), {
        description: 'Crawl year of each shard, aligned with segment_by_shard (repeats for monthly shards).',
      }),
    ),
    latency_ms: latency,
  },
  { title: 'FindResponse' },
);

export const MetadataV1 = Type.Object(
  {
    url: nullableString(2048),
    date: nullableString(40),
    warc_source: nullableString(200),
    language: nullableString(20),
    country_tld: nullableString(2, { pattern: '^[a-z]{2}$' }),
    title: nullableString(2000),
    author: nullableString(500),
    sitename: nullableString(500),
    hostname: nullableString(253),
  },
  { title: 'ArticleMetadataV1', description: 'Values longer than their bound are cut at a character boundary.' },
);

export const GetDocResponse = Type.Object(
  {
    doc_ix: Type.Integer({ description: 'Article number within its crawl year.' }),
    doc_len: Type.Integer({ description: 'Article length in UTF-8 bytes.' }),
    disp_len: Type.Integer({ description: 'Length of `text` in UTF-8 bytes.' }),
    needle_offset: Type.Integer({ description: 'Byte offset of the match inside `text`.' }),
    text: Type.String(),
    spans: Type.Array(Type.Array(Type.Union([Type.String(), Type.Null()]), { minItems: 2, maxItems: 2 }), {
      description: '`text` cut into pieces: [piece, null] or [match, "0"] for every non-overlapping occurrence.',
    }),
    metadata: MetadataV1,
    latency_ms: latency,
  },
  { title: 'GetDocResponse' },
);

export const InfoResponse = Type.Object(
  {
    name: Type.String(),
    description: Type.String(),
    article_count: Type.String({ description: 'Articles in the loaded release, decimal.' }),
    date_range: Type.String({ description: 'First and last crawl period of the loaded shards.' }),
    available_indexes: Type.Array(Type.String()),
    hub_repo_url: Type.String({ description: 'Dataset hub repository page, or "" when no hub copy is configured.' }),
    api_docs: Type.String(),
    hub_retrieval: Type.Object({
      repo: Type.String(),
      repo_url: Type.String(),
      viewer_url_template: Type.String(),
      python_example: Type.String(),
      note: Type.String(),
    }),
  },
  { title: 'InfoResponse' },
);

export const ValidationErrorResponse = Type.Object(
  {
    detail: Type.Array(
      Type.Object({
        loc: Type.Array(Type.Union([Type.String(), Type.Integer()])),
        msg: Type.String(),
        type: Type.String({
          description: 'pydantic v2 error type, e.g. missing, string_too_long, greater_than_equal.',
        }),
        input: Type.Optional(Type.Unknown()),
        ctx: Type.Optional(Type.Object({}, { additionalProperties: true })),
      }),
    ),
  },
  { title: 'HTTPValidationError' },
);

export const ServiceErrorResponse = Type.Object(
  {
    detail: Type.String(),
    code: Type.String(),
  },
  { title: 'ServiceError', additionalProperties: true },
);
