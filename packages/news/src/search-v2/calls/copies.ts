import { Type } from '@sinclair/typebox';
import {
  COPIES_PAGE,
  copiesAfter,
  nextCopiesCursor,
  storyCopies,
  type CopiesRequest as CopiesBody,
  type CopiesResult,
} from '../query/story-copies.ts';
import { ArticleMetadata, closed, nullable } from '../schema/fields.ts';
import { byYears, defineV2Call, REFUSALS, type CombineContext } from './define.ts';
import { SearchRequest } from './search.ts';

const count = Type.Integer({ minimum: 0 });
const { page_size: _p, cursor: _c, dedupe: _d, sample_size: _s, seed: _e, ...searchFields } = SearchRequest.properties;

/**
 * `POST /api/v2/search/copies` (issue 29): the search's fields (query, years, filters, matching options) with the
 * `dedupe` mode and a page entry's `story`.
 */
export const CopiesRequest = Type.Object(
  {
    ...searchFields,
    dedupe: Type.Unsafe<'exact' | 'near'>(
      Type.String({ enum: ['exact', 'near'], description: 'The dedupe of the search whose story this is.' }),
    ),
    expected_index_version: Type.String({
      minLength: 1,
      maxLength: 200,
      description:
        "The search answer's index_version: story ids belong to one release, so another one is a 409 before anything is read.",
    }),
    story: Type.Integer({
      minimum: 0,
      maximum: 2 ** 32 - 1,
      description: 'The story of a search page entry (its story field), searched with the same dedupe.',
    }),
    page_size: Type.Optional(
      Type.Union([Type.Integer({ minimum: 1, maximum: COPIES_PAGE.max }), Type.Null()], {
        default: COPIES_PAGE.default,
        description: `Copies listed per page (at most ${COPIES_PAGE.max}).`,
      }),
    ),
    cursor: Type.Optional(
      Type.Union([Type.String({ maxLength: 1000 }), Type.Null()], {
        default: null,
        description:
          'next_cursor of the previous page (same story and query): the page continues after it; 409 stale_index_version once the release changed.',
      }),
    ),
  },
  { title: 'CopiesRequest' },
);

export const CopiesAnswer = Type.Object(
  {
    index_version: Type.String(),
    story: count,
    story_size: Type.Integer({ minimum: 1, description: 'Articles of the whole release in the story.' }),
    copies: Type.Integer({
      minimum: 0,
      description:
        "The story's articles that match the query in the selected years and pass the filters: the copies of its search page entry.",
    }),
    following: Type.Integer({
      minimum: 0,
      description: 'Of those, the ones after the cursor (all without one); the page is their first page_size.',
    }),
    page: Type.Array(
      Type.Object(
        { shard_id: Type.String(), year: Type.String(), doc_ix: count, metadata: nullable(ArticleMetadata) },
        closed,
      ),
      {
        description:
          'By date (metadata date, else warc_date; undated last), then release order: which outlets ran the story, when, under which headline and link.',
      },
    ),
    next_cursor: Type.Union([Type.String(), Type.Null()], {
      description: 'Send back as cursor for the next page; null on the last page.',
    }),
  },
  { title: 'CopiesResponse', ...closed },
);

/**
 * Copies answers of workers holding disjoint shards: each article lives in one shard, so counts add up, and each
 * worker sent its first `page_size` after the cursor in the same order, so the merged first ones are among them.
 */
export function combineCopies(parts: readonly CopiesResult[], ctx: CombineContext, body: CopiesBody): CopiesResult {
  const after = copiesAfter(
    null,
    parts.flatMap((p) => p.page),
  );
  const following = parts.reduce((n, p) => n + p.following, 0);
  const page = after.slice(0, body.page_size ?? COPIES_PAGE.default);
  return {
    index_version: ctx.indexVersion,
    story: body.story,
    story_size: parts[0]?.story_size ?? 0,
    copies: parts.reduce((n, p) => n + p.copies, 0),
    following,
    page,
    next_cursor: nextCopiesCursor(ctx.indexVersion, following, page),
  };
}

/** POST /api/v2/search/copies (issue 29; search-v2/DESIGN.md, "Stories"). */
export const copiesCall = defineV2Call({
  request: CopiesRequest,
  answer: CopiesAnswer,
  route: {
    method: 'POST',
    path: '/search/copies',
    cost: 'expensive',
    summary: `The copies of one story of a search with dedupe: its articles that match the same query in the same years and pass the same filters (as many as the page entry's copies), ${COPIES_PAGE.max} at most per page, by date then release order, with their metadata (outlet, date, headline, link).`,
    refusals: [
      {
        status: 409,
        description:
          'stale_index_version: expected_index_version (or the cursor) is not the release served now; search again and list the copies of its answer.',
      },
      REFUSALS.cpuLimit,
      {
        status: 422,
        description:
          "unknown_story (no article of the release has that story id in the dedupe mode: send a page entry's story with the same dedupe), invalid_query (also a cursor that is not a copies answer's next_cursor), query_too_complex, unknown_index, invalid_year_range, headlines_not_indexed, stories_unavailable (a release without story files), query_too_expensive (the story's shards past the exact bound).",
      },
      REFUSALS.noCountryTable,
    ],
  },
  routing: byYears<CopiesResult, CopiesBody>(combineCopies),
  run: (release, body, work) => storyCopies(release, body satisfies CopiesBody, work),
});
