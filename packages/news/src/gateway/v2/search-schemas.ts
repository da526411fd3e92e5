import { Type } from '@sinclair/typebox';
import { QUERY_LIMITS } from '../../protocol/index.ts';
import { V1_BOUNDS } from '../v1/schemas.ts';
import { EstimateRequest } from './schemas.ts';

/**
 * `POST /api/v2/search` (issue 27): the request takes the selection and filters of `estimate`, with the query in the
 * news query language (text in `query`, or its JSON form in `query_tree`). The grammar is in /api-docs.
 */
const { query: _phrase, sample_size: _size, seed: _seed, ...selectionAndFilters } = EstimateRequest.properties;

export const SearchRequest = Type.Object({
  ...selectionAndFilters,
  query: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: V1_BOUNDS.queryMaxLength }), Type.Null()], {
    description: 'The query in text form: words, "phrases", AND, OR, NOT, parentheses, a NEAR/n b, word* (grammar in the API reference).',
  })),
  query_tree: Type.Optional(Type.Unknown({ description: 'The query in JSON form (the query_tree of an answer); exactly one of query and query_tree.' })),
  page_size: Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum: QUERY_LIMITS.pageMax }), Type.Null()], {
    default: QUERY_LIMITS.pageDefault, description: 'Matching articles listed, the first in chronological order.',
  })),
  cursor: Type.Optional(Type.Union([Type.String({ maxLength: 1000 }), Type.Null()], {
    default: null, description: 'next_cursor of the previous page (same query and options): the page continues after it; 409 stale_index_version once the release changed.',
  })),
}, { title: 'SearchRequest' });

const count = Type.Integer({ minimum: 0 });
export const SearchResponse = Type.Object({
  index_version: Type.String(),
  query: Type.String({ description: 'The query in canonical text form.' }),
  query_tree: Type.Unknown({ description: 'The query in JSON form, as evaluated.' }),
  notes: Type.Array(Type.String(), { description: 'Normalisations made, e.g. spaces trimmed from a phrase.' }),
  articles: Type.Integer({ minimum: 0, description: 'Matching articles in the selected years that pass the filters.' }),
  exact: Type.Boolean({ description: 'Always true: past the work bound the query is refused with 422 query_too_expensive.' }),
  by_shard: Type.Array(Type.Object({ shard_id: Type.String(), year: Type.String(), articles: count })),
  periods: Type.Array(Type.Object({ period: Type.String(), year: Type.String(), articles: count, shard_ids: Type.Array(Type.String()) }), { description: 'Chronological, zeros included.' }),
  expansions: Type.Array(Type.Object({
    term: Type.String(), words: Type.Array(Type.Object({ word: Type.String(), occurrences: count })),
  }), { description: 'What each word* stood for in the matching articles.' }),
  following: Type.Integer({ minimum: 0, description: 'Matching articles after the cursor (all without one); the page is their first page_size.' }),
  page: Type.Array(Type.Object({
    shard_id: Type.String(), year: Type.String(), doc_ix: count, metadata: Type.Unknown({ description: 'As in documents; null without a metadata store.' }),
    first: Type.Object({ term: Type.String(), offset: count, left: Type.String(), match: Type.String(), right: Type.String() }, { description: 'First occurrence of a positive term, with context.' }),
  })),
  next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'Send back as cursor for the next page; null on the last page.' }),
}, { title: 'SearchResponse' });
