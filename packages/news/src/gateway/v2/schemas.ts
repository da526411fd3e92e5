import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { FILTER_NAMES, V2_LIMITS } from '../../protocol/index.ts';
import { V1_BOUNDS } from '../v1/schemas.ts';

/**
 * v2 request and response shapes (spec §4 v2 and the design doc's "v2 shapes"). The request schemas validate
 * (pydantic-style 422 on failure) and, with the responses, document /api-docs and /openapi.json.
 * Field bounds the spec leaves open for v2 reuse v1's (query, index, years); release-dependent rules (ranks,
 * shards, references) are the worker's and answer `{detail, code, …}`.
 */

const query = (minLength?: number) => Type.String({
  maxLength: V1_BOUNDS.queryMaxLength,
  ...(minLength === undefined ? {} : { minLength }),
  description: 'Phrase matched byte-exactly (case-sensitive) against the UTF-8 article text.',
});
const index = Type.String({ maxLength: V1_BOUNDS.indexMaxLength, pattern: V1_BOUNDS.indexPattern, description: 'Index name (see available_indexes of info).' });
const year = (which: string) => Type.Optional(Type.Union([
  Type.Integer({ minimum: V1_BOUNDS.yearMin, maximum: V1_BOUNDS.yearMax }), Type.Null(),
], { default: null, description: `${which} crawl year (inclusive); omit for no bound.` }));
const expectedIndexVersion = Type.String({
  minLength: 1, maxLength: 200, description: 'The index_version returned by find. A stale value is a 409 before any rank is resolved.',
});
const shardId = Type.String({ maxLength: 40, description: 'A shard_id from the find result.' });
// Integers stay exact JSON numbers: beyond 2^53 − 1 a rank or doc_ix could not be told from its neighbours.
const rank = (description: string) => Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description });
const filter = (matches: string) => Type.Optional(Type.Union([
  Type.Array(Type.String({ maxLength: 500 }), { maxItems: 1000 }), Type.Null(),
], { default: null, description: `Keep documents whose ${matches} equals one of these values after NFKC and full case folding. Empty or omitted: no filter.` }));

/** Matching options (research additions): every call that takes a query accepts them. */
const matching = {
  case: Type.Optional(Type.Union([Type.Unsafe<'sensitive' | 'insensitive'>(Type.String({ enum: ['sensitive', 'insensitive'] })), Type.Null()], {
    default: 'sensitive',
    description: 'insensitive: match every spelling equal to the query under full Unicode case folding (ß ~ SS, Σ/σ/ς, İ); intervals then come one per spelling, so a shard can appear several times in find.',
  })),
  whole_word: Type.Optional(Type.Union([Type.Boolean(), Type.Null()], {
    default: false,
    description: 'Count an occurrence only when the characters around it are not letters or digits (refused for Chinese, Japanese, Thai, Lao, Khmer and Burmese queries). Totals and pages count only whole words; segments still hold every candidate rank.',
  })),
};

const selection = { query: query(), index, year_min: year('First'), year_max: year('Last'), ...matching };

export const FindV2Request = Type.Object({ ...selection, query: query(1) }, { title: 'FindV2Request' });
export const TimelineRequest = Type.Object({ ...selection, query: query(1) }, {
  title: 'TimelineRequest', description: 'Occurrences per crawl period with the period\'s articles and text bytes, for normalised charts.',
});
export const CountV2Request = Type.Object(selection, { title: 'CountV2Request' });

export const GetDocV2Request = Type.Object({
  query: query(),
  index,
  shard_id: shardId,
  rank: rank('A rank inside the query\'s [start, end) interval of that shard.'),
  expected_index_version: expectedIndexVersion,
  max_ctx_len: Type.Optional(Type.Integer({
    minimum: V2_LIMITS.maxCtxLenMin, maximum: V2_LIMITS.maxCtxLenMax, default: V2_LIMITS.maxCtxLenDefault,
    description: 'Context bytes on each side of the match; the window shrinks inward to whole UTF-8 characters.',
  })),
  full_text: Type.Optional(Type.Boolean({ default: false, description: `The whole article (≤ ${V2_LIMITS.fullTextBytes} bytes, else 422 article_too_large).` })),
  ...matching,
}, { title: 'GetDocV2Request' });

const rankRange = {
  index,
  shard_id: shardId,
  rank_from: rank('First rank of the page (inclusive).'),
  rank_to: rank('End of the page (exclusive); at most the shard size.'),
  expected_index_version: expectedIndexVersion,
  query: Type.Optional(Type.Union([query(), Type.Null()], { default: null, description: 'When given, [rank_from, rank_to) must lie inside its interval.' })),
  ...matching,
};

const filters = {
  languages: filter('language (first language identifier)'),
  commonlingua_languages: filter('lang (second language identifier)'),
  topics: filter('topic label (each `;`-separated label of iptc_topic)'),
  sources: filter('hostname or sitename'),
  countries: filter('attributed publisher country (503 without an attribution table)'),
};

export const OccurrencesRequest = Type.Object(rankRange, {
  title: 'OccurrencesRequest', description: `At most ${V2_LIMITS.occurrencesRanks} ranks per call.`,
});

export const DocumentsRequest = Type.Object({
  ...rankRange,
  ...filters,
}, { title: 'DocumentsRequest', description: `At most ${V2_LIMITS.documentsRanks} ranks per call.` });

export const ContextsRequest = Type.Object({
  ...rankRange,
  query: query(1),
  context_bytes: Type.Optional(Type.Integer({
    minimum: 0, maximum: V2_LIMITS.contextBytesMax, default: V2_LIMITS.contextBytesDefault,
    description: 'Bytes of context on each side of the match, cut inward to whole UTF-8 characters.',
  })),
}, { title: 'ContextsRequest', description: `A concordance page: at most ${V2_LIMITS.contextsRanks} ranks of the query's interval in one shard.` });


export const EstimateRequest = Type.Object({
  ...selection,
  query: query(1),
  ...filters,
  sample_size: Type.Optional(Type.Union([Type.Integer({ minimum: 100, maximum: V2_LIMITS.estimateSampleMax }), Type.Null()], {
    default: V2_LIMITS.estimateSampleDefault,
    description: `Ranks sampled when the query has more than ${V2_LIMITS.estimateExactRanks} occurrences (below that every rank is resolved and the answer is exact).`,
  })),
  seed: Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum: 4_294_967_295 }), Type.Null()], {
    default: 1, description: 'Seed of the sample: the same request gives the same estimate.',
  })),
}, { title: 'EstimateRequest' });

export const DocumentRef = Type.Object({
  year: Type.String({ maxLength: 10, description: 'Crawl year.' }),
  doc_ix: Type.Integer({ minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER, description: 'Article number within the crawl year (outside its range: 422 invalid_doc_ix).' }),
}, { title: 'DocumentRef' });

export const MetadataRequest = Type.Object({
  index,
  expected_index_version: expectedIndexVersion,
  documents: Type.Array(DocumentRef, { maxItems: V2_LIMITS.metadataReferences, description: 'Answered in this order.' }),
}, { title: 'MetadataRequest' });

export type FindV2Request = Static<typeof FindV2Request>;
export type GetDocV2Request = Static<typeof GetDocV2Request>;
export type DocumentsRequest = Static<typeof DocumentsRequest>;
export type MetadataRequest = Static<typeof MetadataRequest>;

// Responses: documentation only (the worker's domain layer builds them).
const nullable = (t: TSchema) => Type.Union([t, Type.Null()]);
const str = nullable(Type.String());
export const MetadataV2 = Type.Object({
  url: str, title: str, author: str, sitename: str, hostname: str, warc_source: str, warc_record_id: str, warc_date: str,
  publish_date: str, date: str, date_source: str, language: str, lang: str, country_tld: str, country: str,
  country_source: str, country_confidence: str, iptc_topic: str,
  scores: nullable(Type.Record(Type.String(), Type.Number())),
  text_xxhash64: Type.String({ description: 'xxHash64 (seed 0) of the UTF-8 text, unsigned decimal; keep it a string.' }),
}, { title: 'ArticleMetadataV2' });

const indexVersion = Type.String({ description: 'The release these results come from; echo it as expected_index_version.' });
const interval = Type.Array(Type.Integer(), { minItems: 2, maxItems: 2 });

export const FindV2Response = Type.Object({
  total_occurrences: Type.Integer(), segment_by_shard: Type.Array(interval, { description: 'Half-open [start, end) per shard, aligned with shard_ids.' }),
  shard_years: Type.Array(Type.String()), shard_ids: Type.Array(Type.String()), index_version: indexVersion,
}, { title: 'FindV2Response' });
export const CountV2Response = Type.Object({ count: Type.Integer(), index_version: indexVersion, latency_ms: Type.Number() }, { title: 'CountV2Response' });
export const GetDocV2Response = Type.Object({
  index_version: indexVersion, year: Type.String(), shard_id: Type.String(), rank: Type.Integer(), doc_ix: Type.Integer(),
  doc_len: Type.Integer({ description: 'Article bytes.' }), disp_len: Type.Integer({ description: 'Bytes of text.' }),
  needle_offset: Type.Integer({ description: 'Byte offset of the match in text.' }), text: Type.String(),
  spans: Type.Array(Type.Array(Type.Union([Type.String(), Type.Null()]), { minItems: 2, maxItems: 2 })), metadata: MetadataV2,
}, { title: 'GetDocV2Response' });
const page = { index_version: indexVersion, shard_id: Type.String(), rank_from: Type.Integer(), rank_to: Type.Integer(), page_occurrences: Type.Integer() };
export const OccurrencesResponse = Type.Object({
  ...page,
  occurrences: Type.Array(Type.Object({ rank: Type.Integer(), year: Type.String(), doc_ix: Type.Integer(), offset: Type.Integer({ description: 'Byte offset of the match in the article.' }) })),
}, { title: 'OccurrencesResponse' });
export const DocumentsResponse = Type.Object({
  ...page,
  page_distinct_documents: Type.Integer(), page_matching_documents: Type.Integer(), page_matching_occurrences: Type.Integer(),
  documents: Type.Array(Type.Object({ year: Type.String(), doc_ix: Type.Integer(), occurrences: Type.Integer(), first_rank: Type.Integer(), metadata: MetadataV2 }),
    { description: 'Matching documents in order of first rank. Page-local: merge pages by (year, doc_ix) for totals.' }),
}, { title: 'DocumentsResponse' });
export const MetadataResponse = Type.Object({
  index_version: indexVersion,
  documents: Type.Array(Type.Object({ year: Type.String(), doc_ix: Type.Integer(), metadata: MetadataV2 })),
}, { title: 'MetadataResponse' });
const filterSupport = Type.Object({
  available: Type.Boolean(),
  reason: Type.Union([Type.Literal('no_values'), Type.Literal('no_attribution_table'), Type.Null()]),
});
export const InfoV2Response = Type.Object({
  name: Type.String(), description: Type.String(), index_version: indexVersion, document_count: Type.Integer(),
  date_range: Type.Object({ first: nullable(Type.String()), last: nullable(Type.String()) }, { description: 'Crawl periods of the first and last loaded shard.' }),
  shards: Type.Array(Type.Object({ shard_id: Type.String(), year: Type.String(), documents: Type.Integer(), bytes: Type.Integer() })),
  available_indexes: Type.Array(Type.String()),
  filters: Type.Object(Object.fromEntries(FILTER_NAMES.map((name) => [name, filterSupport])), {
    description: 'Which metadata filters this index can serve (research addition): a filter whose field is empty in every article (reason no_values), '
      + 'or countries without an attribution table (no_attribution_table), selects nothing; clients should disable it and say why.',
  }),
  hub_retrieval: Type.Object({ repo: Type.String(), revision: nullable(Type.String()), python_example: Type.String(), note: Type.String() }),
}, { title: 'InfoV2Response' });
export const TimelineResponse = Type.Object({
  index_version: indexVersion, query: Type.String(), total_occurrences: Type.Integer(),
  periods: Type.Array(Type.Object({
    period: Type.String({ description: 'Crawl period (YYYY-MM or YYYY); parts of a split period are summed.' }), year: Type.String(),
    occurrences: Type.Integer(), articles: Type.Integer({ description: 'Articles crawled in the period.' }),
    text_bytes: Type.Integer({ description: 'UTF-8 text bytes of those articles.' }), shard_ids: Type.Array(Type.String()),
  }), { description: 'Chronological; periods without a match are listed with 0.' }),
}, { title: 'TimelineResponse' });
export const ContextsResponse = Type.Object({
  index_version: indexVersion, shard_id: Type.String(), rank_from: Type.Integer(), rank_to: Type.Integer(), context_bytes: Type.Integer(),
  contexts: Type.Array(Type.Object({
    rank: Type.Integer(), year: Type.String(), doc_ix: Type.Integer(), offset: Type.Integer({ description: 'Byte offset of the match in the article.' }),
    left: Type.String(), match: Type.String(), right: Type.String(), title: str, hostname: str,
  }), { description: 'In rank order.' }),
}, { title: 'ContextsResponse' });
const estimated = Type.Object({ value: Type.Integer(), low: Type.Integer(), high: Type.Integer() }, { description: 'Point value and 95% interval (equal when exact).' });
export const EstimateResponse = Type.Object({
  index_version: indexVersion, query: Type.String(), mode: Type.Union([Type.Literal('exact'), Type.Literal('sampled')]),
  total_occurrences: Type.Integer({ description: 'Occurrences before filters (exact).' }),
  resolved_ranks: Type.Integer({ description: 'All ranks (exact) or the sample size.' }), seed: Type.Integer(), confidence: Type.Number(),
  matching_occurrences: estimated, matching_articles: estimated,
  facets: Type.Record(Type.String(), Type.Array(Type.Object({
    value: Type.String(), occurrences: Type.Integer(), articles: Type.Integer(),
    observed: Type.Integer({ description: 'Articles (exact) or sampled occurrences (sampled) the figures rest on.' }),
  })), { description: 'Top 20 values of language, lang, topic, source and (with an attribution table) country among matching articles.' }),
  periods: Type.Array(Type.Object({ period: Type.String(), occurrences: Type.Integer() }), {
    description: 'Matching occurrences per crawl period of the selected years, chronological, zeros included (exact, or the sample scaled to the total).',
  }),
}, { title: 'EstimateResponse' });
export const V2ErrorResponse = Type.Object({
  detail: Type.String({ description: 'What happened and what to do.' }), code: Type.String({ description: 'Stable code, e.g. stale_index_version.' }),
}, { title: 'V2Error', additionalProperties: true });
