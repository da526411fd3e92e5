import { Type } from '@sinclair/typebox';
import { documents } from '../documents.ts';
import { V2_LIMITS } from '../limits.ts';
import { ArticleMetadata, closed, dedupe, filters, page, rankRange } from '../schema/fields.ts';
import { byShard, defineV2Call, REFUSALS } from './define.ts';

export const DocumentsRequest = Type.Object(
  { ...rankRange, ...filters, ...dedupe },
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
    story: Type.Optional(
      Type.Integer({
        minimum: 0,
        description:
          "With dedupe: the story's id, release-wide (the same on every page, shard and worker): merge pages by it.",
      }),
    ),
    story_size: Type.Optional(
      Type.Integer({ minimum: 1, description: 'With dedupe: articles of the whole release in the story.' }),
    ),
    page_copies: Type.Optional(
      Type.Integer({
        minimum: 1,
        description: 'With dedupe: matching documents of the story on this page (this one included).',
      }),
    ),
  },
  closed,
);

export const DocumentsAnswer = Type.Object(
  {
    ...page,
    page_distinct_documents: Type.Integer(),
    page_matching_documents: Type.Integer(),
    page_matching_occurrences: Type.Integer(),
    page_matching_stories: Type.Optional(
      Type.Integer({ description: 'With dedupe: distinct stories among the matching documents of the page.' }),
    ),
    documents: Type.Array(DocumentRecord, {
      description:
        'Matching documents in order of first rank (with dedupe: the first of each story). Page-local: merge pages by (year, doc_ix), or by story with dedupe, for totals.',
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
    refusals: [
      REFUSALS.cpuLimit,
      REFUSALS.stale,
      REFUSALS.ranks(V2_LIMITS.documentsRanks),
      { status: 422, description: 'stories_unavailable: dedupe on a release without story files.' },
      REFUSALS.noCountryTable,
    ],
  },
  routing: byShard,
  run: documents,
});
