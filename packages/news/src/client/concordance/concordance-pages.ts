import type { FindResponse } from '../api/types.ts';

/** Lines per concordance page: the contexts API's limit per call, so a page within one shard is one request. */
export const CONCORDANCE_PAGE = 1000;

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
