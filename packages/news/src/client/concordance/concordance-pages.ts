import type { FindResponse } from '../api/types.ts';

/** Lines per concordance page: the contexts API's limit per call, so a page within one shard is one request. */
export const CONCORDANCE_PAGE = 1000;

/**
 * Occurrences the whole concordance loads at most (sorted and exported together): 50 pages, a few megabytes of JSON
 * and a sort of about a second in a phone's browser. Past it the whole concordance is the first 50,000 in corpus order.
 */
export const WHOLE_CONCORDANCE_MAX = 50_000;

/** The pages the whole concordance loads: every page of the find answer up to `max` occurrences. */
export function wholeConcordancePages(
  found: Pick<FindResponse, 'shard_ids' | 'segment_by_shard'>,
  max = WHOLE_CONCORDANCE_MAX,
  size = CONCORDANCE_PAGE,
): ContextsSlice[][] {
  const wanted = Math.min(concordanceSize(found), max);
  const pages: ContextsSlice[][] = [];
  for (let p = 0; p * size < wanted; p++) {
    // The last page stops at `max` even when `max` is not a multiple of the page size.
    let room = Math.min(size, wanted - p * size);
    const slices: ContextsSlice[] = [];
    for (const s of concordancePage(found, p, size)) {
      if (room === 0) break;
      const to = Math.min(s.rankTo, s.rankFrom + room);
      slices.push({ ...s, rankTo: to });
      room -= to - s.rankFrom;
    }
    pages.push(slices);
  }
  return pages;
}

/** One contexts request: a rank range of one shard. */
export interface ContextsSlice {
  readonly shardId: string;
  readonly rankFrom: number;
  readonly rankTo: number;
}

/** Occurrences of a find answer (the sum of its intervals), in the order the concordance lists them. */
export function concordanceSize(found: Pick<FindResponse, 'segment_by_shard'>): number {
  return found.segment_by_shard.reduce((n, [a, b]) => n + Math.max(0, b - a), 0);
}

/**
 * The contexts requests of page `page` (0-based): occurrences [page·size, (page+1)·size) of the find answer's
 * intervals taken one after another, so a page that crosses a shard's end takes the rest from the next shards.
 * @example concordancePage({shard_ids:['a','b'], segment_by_shard:[[5,8],[0,4]]}, 0, 5)
 *   // [{shardId:'a',rankFrom:5,rankTo:8}, {shardId:'b',rankFrom:0,rankTo:2}]
 */
export function concordancePage(
  found: Pick<FindResponse, 'shard_ids' | 'segment_by_shard'>,
  page: number,
  size = CONCORDANCE_PAGE,
): ContextsSlice[] {
  const slices: ContextsSlice[] = [];
  let skip = page * size;
  let want = size;
  found.segment_by_shard.forEach(([start, end], i) => {
    const width = Math.max(0, end - start);
    if (want === 0) return;
    if (skip >= width) {
      skip -= width;
      return;
    }
    const from = start + skip;
    const to = Math.min(end, from + want);
    slices.push({ shardId: found.shard_ids[i] ?? '', rankFrom: from, rankTo: to });
    want -= to - from;
    skip = 0;
  });
  return slices;
}
