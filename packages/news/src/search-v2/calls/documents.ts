import { Type } from '@sinclair/typebox';
import { documents } from '../documents.ts';
import { V2_LIMITS } from '../limits.ts';
import { ArticleMetadata, closed, filters, page, rankRange } from '../schema/fields.ts';
import { byShard, defineV2Call, REFUSALS } from './define.ts';

export const DocumentsRequest = Type.Object(
  { ...rankRange, ...filters },
  {
    title: 'DocumentsRequest',
    description: `At most ${V2_LIMITS.documentsRanks} ranks per call.`,
  },
);

export const DocumentRecord = Type.Object(
  {
    year: Type.String(),
    doc_ix: Type.Integer(),
    occurrences: Type.Integer({ description: 'Occurrences of this document on this page.' }),
    first_rank: Type.Integer(),
    metadata: ArticleMetadata,
  },
  closed,
);

export const DocumentsAnswer = Type.Object(
  {
    ...page,
    page_distinct_documents: Type.Integer(),
    page_matching_documents: Type.Integer(),
    page_matching_occurrences: Type.Integer(),
    documents: Type.Array(DocumentRecord, {
      description: 'Matching documents in order of first rank. Page-local: merge pages by (year, doc_ix) for totals.',
    }),
  },
  { title: 'DocumentsResponse', ...closed },
);

/** POST /api/v2/documents (spec §4 v2). */
export const documentsCall = defineV2Call({
  request: DocumentsRequest,
  answer: DocumentsAnswer,
  route: {
    method: 'POST',
    path: '/documents',
    cost: 'expensive',
    summary: `Distinct documents of up to ${V2_LIMITS.documentsRanks.toLocaleString('en')} ranks, filtered by metadata, with page counts.`,
    refusals: [REFUSALS.cpuLimit, REFUSALS.stale, REFUSALS.ranks(V2_LIMITS.documentsRanks), REFUSALS.noCountryTable],
  },
  routing: byShard,
  run: documents,
});
