import { Type } from '@sinclair/typebox';
import { V2_LIMITS } from '../limits.ts';
import { metadataJson } from '../metadata.ts';
import { ArticleMetadata, closed, expectedIndexVersion, index, indexVersion } from '../schema/fields.ts';
import { defineV2Call, REFUSALS } from './define.ts';

export const DocumentRef = Type.Object(
  {
    year: Type.String({ maxLength: 10, description: 'Crawl year.' }),
    doc_ix: Type.Integer({
      minimum: -Number.MAX_SAFE_INTEGER,
      maximum: Number.MAX_SAFE_INTEGER,
      description: 'Article number within the crawl year (outside its range: 422 invalid_doc_ix).',
    }),
  },
  { title: 'DocumentRef' },
);

export const MetadataRequest = Type.Object(
  {
    index,
    expected_index_version: expectedIndexVersion,
    documents: Type.Array(DocumentRef, {
      maxItems: V2_LIMITS.metadataReferences,
      description: 'Answered in this order.',
    }),
  },
  { title: 'MetadataRequest' },
);

export const MetadataAnswer = Type.Object(
  {
    index_version: indexVersion,
    documents: Type.Array(
      Type.Object({ year: Type.String(), doc_ix: Type.Integer(), metadata: ArticleMetadata }, closed),
    ),
  },
  { title: 'MetadataResponse', ...closed },
);

/** POST /api/v2/metadata (spec §4 v2); encoded as text once, which also measures it against the cap. */
export const metadataCall = defineV2Call({
  request: MetadataRequest,
  answer: MetadataAnswer,
  route: {
    method: 'POST',
    path: '/metadata',
    cost: 'cheap',
    summary: `Full metadata of up to ${V2_LIMITS.metadataReferences.toLocaleString('en')} (year, doc_ix) references, in request order.`,
    refusals: [
      REFUSALS.stale,
      {
        status: 422,
        description:
          "invalid_doc_ix: doc_ix outside the year's articles; invalid_year: a year that is not four digits.",
      },
      { status: 404, description: 'unknown_year: a crawl year the release does not have.' },
      { status: 413, description: 'response_too_large: the response would pass 16 MiB; retry with fewer references.' },
      {
        status: 503,
        description:
          'year_store_missing: a crawl year of the release whose metadata store is not loaded; retry after Retry-After.',
      },
    ],
  },
  routing: { by: 'references', of: (b) => b },
  run: (release, body) => metadataJson(release, body),
});
