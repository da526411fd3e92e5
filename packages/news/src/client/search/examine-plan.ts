import type { FindResponse } from '../api/types.ts';

/** Ranks the page examines per search or continuation (spec §8), which is also the documents endpoint's limit. */
export const EXAMINE_BUDGET = 1000;

/** One shard's half-open rank interval from `find`. */
export interface Segment {
  readonly shardId: string;
  readonly year: string;
  readonly lo: number;
  readonly hi: number;
}

/** One documents call: [rankFrom, rankTo) inside one shard. */
export interface PageRange {
  readonly shardId: string;
  readonly rankFrom: number;
  readonly rankTo: number;
}

/** The next rank to examine: segment position and rank inside it. `segment === segments.length` means done. */
export interface Cursor {
  readonly segment: number;
  readonly rank: number;
}

/** Non-empty segments of a find answer, in find's (chronological) order. */
export function segmentsOf(found: FindResponse): Segment[] {
  const out: Segment[] = [];
  found.shard_ids.forEach((shardId, i) => {
    const seg = found.segment_by_shard[i];
    if (seg !== undefined && seg[1] > seg[0])
      out.push({ shardId, year: found.shard_years[i] ?? shardId.slice(0, 4), lo: seg[0], hi: seg[1] });
  });
  return out;
}

export function startCursor(segments: readonly Segment[]): Cursor {
  return { segment: 0, rank: segments[0]?.lo ?? 0 };
}

export function isExhausted(segments: readonly Segment[], cursor: Cursor): boolean {
  return cursor.segment >= segments.length;
}

/**
 * The pages of the next examination: at most `budget` ranks in all, one page per shard touched, in find order.
 * @example planPages([{shardId:'2024-01',year:'2024',lo:0,hi:700},{shardId:'2024-02',year:'2024',lo:5,hi:905}], {segment:0,rank:0})
 *   // pages [0,700) of 2024-01 and [5,305) of 2024-02; next cursor {segment:1, rank:305}
 */
export function planPages(
  segments: readonly Segment[],
  cursor: Cursor,
  budget = EXAMINE_BUDGET,
): { pages: PageRange[]; next: Cursor } {
  const pages: PageRange[] = [];
  let { segment, rank } = cursor;
  let left = budget;
  while (left > 0 && segment < segments.length) {
    const seg = segments[segment] as Segment;
    const from = Math.max(rank, seg.lo);
    const to = Math.min(seg.hi, from + left);
    if (to > from) pages.push({ shardId: seg.shardId, rankFrom: from, rankTo: to });
    left -= to - from;
    if (to >= seg.hi) {
      segment += 1;
      rank = segments[segment]?.lo ?? 0;
    } else {
      rank = to;
    }
  }
  return { pages, next: { segment, rank } };
}

/** Ranks not yet examined. */
export function remainingRanks(segments: readonly Segment[], cursor: Cursor): number {
  let n = 0;
  segments.forEach((seg, i) => {
    if (i > cursor.segment) n += seg.hi - seg.lo;
    else if (i === cursor.segment) n += seg.hi - Math.max(cursor.rank, seg.lo);
  });
  return n;
}
