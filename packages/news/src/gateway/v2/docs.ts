import { V2_LIMITS } from '../../protocol/index.ts';
import { ValidationErrorResponse } from '../v1/schemas.ts';
import * as s from './schemas.ts';
import { SearchRequest, SearchResponse } from './search-schemas.ts';
import type { EndpointDoc } from '../endpoint-doc.ts';

const err = (status: number, description: string) => ({ status, description, schema: s.V2ErrorResponse });
const validation = { status: 422, description: 'Validation error (FastAPI/pydantic v2 format).', schema: ValidationErrorResponse };
const stale = err(409, 'stale_index_version: expected_index_version is not the release served now; run find again. Checked before any rank is resolved.');
const unavailable = err(503, 'release_unavailable / worker_unavailable: the worker does not serve the configured release, or is down; retry after Retry-After.');
// Listed after the validation 422 and before the endpoint's own, which /openapi.json keeps (one entry per status there).
const cpuLimit = err(422, 'query_too_expensive: the request needed more than its CPU allowance on the worker (1,000 ms on the compressed '
  + 'index kind, 1,500 ms on the SA kind; whole_word and case-insensitive searches of very common words cost most); narrow it or use estimate.');
// Admission (gateway/DESIGN.md "Fairness between clients"): expensive calls only, each with Retry-After: 1.
const limited = err(429, 'rate_limited: this client (address) already has its expensive calls under way (GATEWAY_EXPENSIVE_PER_CLIENT, default 6); retry after Retry-After. Body: detail, code, limit.');
const overloaded = err(503, 'overloaded: expensive calls of all clients filled the expensive slots (GATEWAY_EXPENSIVE_IN_FLIGHT, default 2) until the deadline; retry after Retry-After.');
const admission = [limited, overloaded] as const;
const whenInsensitive = [
  err(429, 'rate_limited, only for case-insensitive or whole-word queries (they count as expensive): the client\'s expensive calls are all under way; retry after Retry-After.'),
  overloaded,
] as const;
const ranks = (limit: number) => err(422, `too_many_ranks (over ${limit} ranks), rank_out_of_range (rank_to over the shard size, or outside the query's interval), unknown_shard, unknown_index.`);

/** The v2 endpoints for /api-docs and /openapi.json, described by the schemas that validate them. */
export const V2_DOCS: readonly EndpointDoc[] = [
  { method: 'POST', path: '/api/v2/find', summary: 'Rank intervals of a phrase per shard, with shard ids and the release (index_version).',
    request: s.FindV2Request, response: s.FindV2Response, errors: [validation, cpuLimit, err(422, 'unknown_index, invalid_year_range.'), ...whenInsensitive, unavailable] },
  { method: 'POST', path: '/api/v2/count', summary: 'Occurrences of a phrase in the selected crawl years.',
    request: s.CountV2Request, response: s.CountV2Response, errors: [validation, cpuLimit, ...whenInsensitive, unavailable] },
  { method: 'POST', path: '/api/v2/get_doc', summary: 'The article holding one occurrence: a window, or with full_text the whole article, with full metadata.',
    request: s.GetDocV2Request, response: s.GetDocV2Response,
    errors: [validation, cpuLimit, stale, err(422, `article_too_large (full_text over ${V2_LIMITS.fullTextBytes} bytes), rank_out_of_range, unknown_shard.`), unavailable] },
  { method: 'POST', path: '/api/v2/occurrences', summary: `Resolve up to ${V2_LIMITS.occurrencesRanks.toLocaleString('en')} ranks of one shard to (year, doc_ix, byte offset).`,
    request: s.OccurrencesRequest, response: s.OccurrencesResponse, errors: [validation, cpuLimit, stale, ranks(V2_LIMITS.occurrencesRanks), ...admission, unavailable] },
  { method: 'POST', path: '/api/v2/documents', summary: `Distinct documents of up to ${V2_LIMITS.documentsRanks.toLocaleString('en')} ranks, filtered by metadata, with page counts.`,
    request: s.DocumentsRequest, response: s.DocumentsResponse,
    errors: [validation, cpuLimit, stale, ranks(V2_LIMITS.documentsRanks), err(503, 'country_attribution_unavailable: countries filter without an attribution table.'), ...admission, unavailable] },
  { method: 'POST', path: '/api/v2/metadata', summary: `Full metadata of up to ${V2_LIMITS.metadataReferences.toLocaleString('en')} (year, doc_ix) references, in request order.`,
    request: s.MetadataRequest, response: s.MetadataResponse,
    errors: [validation, stale, err(422, 'invalid_doc_ix: doc_ix outside the year\'s articles; invalid_year: a year that is not four digits.'),
      err(404, 'unknown_year: a crawl year the release does not have.'), err(413, 'response_too_large: the response would pass 16 MiB; retry with fewer references.'),
      err(503, 'year_store_missing: a crawl year of the release whose metadata store is not loaded; retry after Retry-After.'), unavailable] },
  { method: 'POST', path: '/api/v2/timeline', summary: 'Occurrences per crawl period with the articles and text bytes of each period (for per-million-bytes or per-1,000-articles charts).',
    request: s.TimelineRequest, response: s.TimelineResponse, errors: [validation, cpuLimit, err(422, 'unknown_index, invalid_year_range, invalid_query.'), ...admission, unavailable] },
  { method: 'POST', path: '/api/v2/contexts', summary: `Concordance: up to ${V2_LIMITS.contextsRanks.toLocaleString('en')} ranks of one shard as left context, match and right context (≤ ${V2_LIMITS.contextBytesMax} bytes each side) with title and hostname.`,
    request: s.ContextsRequest, response: s.ContextsResponse, errors: [validation, cpuLimit, stale, ranks(V2_LIMITS.contextsRanks), ...admission, unavailable] },
  { method: 'POST', path: '/api/v2/estimate', summary: `Occurrences and articles passing the metadata filters, with facet counts: exact up to ${V2_LIMITS.estimateExactRanks.toLocaleString('en')} occurrences, else estimated from a seeded uniform sample with 95% intervals.`,
    request: s.EstimateRequest, response: s.EstimateResponse,
    errors: [validation, cpuLimit, err(422, 'unknown_index, invalid_year_range, invalid_query.'), err(503, 'country_attribution_unavailable: countries filter without an attribution table.'), ...admission, unavailable] },
  { method: 'POST', path: '/api/v2/search', summary: 'Articles matching a query of the query language (words, "phrases", AND, OR, NOT, parentheses, NEAR/n, word*; see "Query language" above): how many, per shard and crawl period, what each word* stood for, and the first page_size of them with the first occurrence of a positive term.',
    request: SearchRequest, response: SearchResponse,
    errors: [validation, cpuLimit, err(422, 'invalid_query (with position for syntax errors; NOT-only queries; title: and * inside a phrase not supported yet), query_too_expensive (work bound), query_too_complex (terms or prefix expansions, with limit), unknown_index, invalid_year_range.'),
      err(503, 'country_attribution_unavailable, year_store_missing: a filter the release cannot apply.'), ...admission, unavailable] },
  { method: 'GET', path: '/api/v2/info', summary: 'What the worker has loaded (shards, crawl range, documents) and the retrieval recipe.',
    request: null, response: s.InfoV2Response, errors: [unavailable] },
];
