import type { ArticleMetadata, OpenRelease, ShardHandle } from '../../release/types.ts';
import { WorkBudget } from '../../work-budget/index.ts';
import { V2Error } from '../errors.ts';
import { matchOptionsOf } from '../matching.ts';
import { assertIndexVersion, lookupIndex } from '../release-lookup.ts';
import { storiesOf } from '../stories/index.ts';
import { cursorJson } from './cursor.ts';
import { queryBudget, tooExpensive } from './evaluate.ts';
import { planShards } from './plan.ts';
import { filteredShards } from './filtered-shards.ts';
import { QUERY_LIMITS } from './limits.ts';
import { exactTallies, queryOf } from './search.ts';
import type { SearchRequest } from './types.ts';

/** Copies listed per page: the default and the bound of `page_size`. */
export const COPIES_PAGE = { default: 50, max: 100 } as const;

/** `POST /api/v2/search/copies`: the search's query, selection and filters, one story and a page of it. */
export interface CopiesRequest extends Omit<SearchRequest, 'dedupe' | 'page_size' | 'sample_size' | 'seed'> {
  readonly dedupe: 'exact' | 'near';
  /** The search answer's `index_version`: story ids are release-wide, so valid in that release only. */
  readonly expected_index_version: string;
  /** The release-wide story id a search page entry gives (`story`). */
  readonly story: number;
  readonly page_size?: number | null;
}

/** One matching article of the story. */
export interface StoryCopy {
  readonly shard_id: string;
  readonly year: string;
  readonly doc_ix: number;
  /** Null when the year's metadata store is missing. */
  readonly metadata: ArticleMetadata | null;
}

export interface CopiesResult {
  readonly index_version: string;
  readonly story: number;
  /** Articles of the whole release in the story (any query, year or filter). */
  readonly story_size: number;
  /** The story's articles matching the query in the selected years that pass the filters: the search's `copies`. */
  readonly copies: number;
  /** Of those, the ones after the cursor (all without one); the page is their first `page_size`. */
  readonly following: number;
  /** By date (the article's `date`, else its crawl date; undated last), then release order. */
  readonly page: readonly StoryCopy[];
  readonly next_cursor: string | null;
}

/** Where a page of copies ended: its last article's date and place. */
interface CopyPosition {
  readonly index_version: string;
  readonly date: string | null;
  readonly shard_id: string;
  readonly doc_ix: number;
}

const dateOf = (c: StoryCopy): string | null => c.metadata?.date ?? c.metadata?.warc_date ?? null;

/**
 * Copies in listing order: by date (undated last), then release order (shard ids sort chronologically as strings,
 * so a worker and a gateway order any shard's article alike without the release's shard list).
 */
export function compareCopies(a: Pick<CopyPosition, 'date' | 'shard_id' | 'doc_ix'>, b: typeof a): number {
  if (a.date !== b.date) return a.date === null ? 1 : b.date === null ? -1 : a.date < b.date ? -1 : 1;
  return a.shard_id < b.shard_id ? -1 : a.shard_id > b.shard_id ? 1 : a.doc_ix - b.doc_ix;
}

const positionOf = (c: StoryCopy) => ({ date: dateOf(c), shard_id: c.shard_id, doc_ix: c.doc_ix });

/** Sorts copies into listing order (a new array). */
export const inCopyOrder = (copies: readonly StoryCopy[]): StoryCopy[] =>
  [...copies].sort((a, b) => compareCopies(positionOf(a), positionOf(b)));

/** The opaque `next_cursor` of a copies page (base64url JSON, versioned by its first element). */
export function nextCopiesCursor(indexVersion: string, following: number, page: readonly StoryCopy[]): string | null {
  const last = page.at(-1);
  if (last === undefined || following <= page.length) return null;
  const p = positionOf(last);
  return Buffer.from(JSON.stringify([1, indexVersion, p.date, p.shard_id, p.doc_ix])).toString('base64url');
}

function decodeCopiesCursor(cursor: string): CopyPosition {
  const v = cursorJson(cursor);
  if (
    !Array.isArray(v) ||
    v.length !== 5 ||
    v[0] !== 1 ||
    typeof v[1] !== 'string' ||
    (v[2] !== null && typeof v[2] !== 'string') ||
    typeof v[3] !== 'string' ||
    !Number.isSafeInteger(v[4])
  ) {
    throw new V2Error(
      'invalid_query',
      'cursor is not a next_cursor of a copies answer: send it back unchanged, with the same story and query',
    );
  }
  return {
    index_version: v[1] as string,
    date: v[2] as string | null,
    shard_id: v[3] as string,
    doc_ix: v[4] as number,
  };
}

/** The copies after the request's cursor (all without one), in listing order. */
export function copiesAfter(cursor: string | null | undefined, copies: readonly StoryCopy[]): StoryCopy[] {
  const ordered = inCopyOrder(copies);
  if (cursor === undefined || cursor === null) return ordered;
  const at = decodeCopiesCursor(cursor);
  return ordered.filter((c) => compareCopies(positionOf(c), at) > 0);
}

/** The index version a cursor was made on (for the 409 of a stale one), or undefined without a cursor. */
export const cursorVersion = (cursor: string | null | undefined): string | undefined =>
  cursor === undefined || cursor === null ? undefined : decodeCopiesCursor(cursor).index_version;

/**
 * The articles of one story that match the search (same query, years, filters, matching options): exactly the
 * articles the search's `copies` counts, so their number equals it. Only the shards holding the story's release
 * span (its first to last article) are read, and only articles of the story are verified.
 * @example (await storyCopies(release, { index: 'news', query: 'oil', dedupe: 'near', story: 17 })).copies // 23
 */
export async function storyCopies(
  release: OpenRelease,
  request: CopiesRequest,
  work: WorkBudget = WorkBudget.unlimited(),
): Promise<CopiesResult> {
  assertIndexVersion(release, request.expected_index_version);
  const version = cursorVersion(request.cursor);
  if (version !== undefined) assertIndexVersion(release, version);
  const { tree } = queryOf(request);
  const index = lookupIndex(release, request.index);
  const stories = storiesOf(index, request.dedupe);
  if (stories === undefined) throw new Error('unreachable: dedupe is exact or near');
  const { table, mode } = stories;
  const size = table.sizeOf(request.story, mode);
  if (size === 0) {
    throw new V2Error(
      'unknown_story',
      `story ${request.story} is not a ${mode} story of this release: send the story of a search page entry made with the same dedupe`,
      { story: request.story, dedupe: mode },
    );
  }
  const last = table.lastOf(request.story, mode);
  const holdsSpan = (s: ShardHandle) => {
    const from = table.releaseNumber(s.year, s.docBase);
    return from !== undefined && from <= last && request.story < from + s.reader.stats.docCount;
  };
  const { shards, stores, keep } = filteredShards(release, request, holdsSpan);
  const budget = queryBudget(work, QUERY_LIMITS);
  const options = matchOptionsOf(request);
  const plans = planShards(shards, tree, options, budget);
  // Articles of other stories are dropped before any text is read.
  const inStory = (i: number, doc: number) => {
    const s = shards[i] as ShardHandle;
    return table.storyOf(s.year, s.docBase + doc, mode) === request.story && keep(i, doc);
  };
  const tallies = await exactTallies(plans, tree, inStory, budget);
  if (tallies === null)
    throw tooExpensive(
      "listing a story's copies needs the exact answer, and the query's driver occurrences exceed its bound",
    );
  const copies = tallies.listed.map(({ shard: i, match }) => {
    const s = shards[i] as ShardHandle;
    const docIx = s.docBase + match.doc;
    return { shard_id: s.shardId, year: s.year, doc_ix: docIx, metadata: stores[i]?.get(docIx) ?? null };
  });
  return pageOfCopies(release.indexVersion, request, size, copies);
}

/**
 * One answer from all the copies a process found (any order): the count, those after the cursor and the first
 * `page_size` of them. A worker's answer over its shards; the gateway merges such answers (`calls/copies.ts`).
 */
export function pageOfCopies(
  indexVersion: string,
  request: Pick<CopiesRequest, 'story' | 'cursor' | 'page_size'>,
  storySize: number,
  copies: readonly StoryCopy[],
): CopiesResult {
  const after = copiesAfter(request.cursor, copies);
  const page = after.slice(0, request.page_size ?? COPIES_PAGE.default);
  return {
    index_version: indexVersion,
    story: request.story,
    story_size: storySize,
    copies: copies.length,
    following: after.length,
    page,
    next_cursor: nextCopiesCursor(indexVersion, after.length, page),
  };
}
