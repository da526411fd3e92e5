import type { DocumentsResult, FindResult } from './types.ts';

/** One continuation page: a half-open rank range of one shard. */
export interface PageRange {
  readonly shard_id: string;
  readonly rank_from: number;
  readonly rank_to: number;
}

/**
 * Cuts every interval of a find result into pages of at most `pageSize` ranks, in find's shard order.
 *
 * @example planPages(found, 1000) // [{shard_id: '1987-02', rank_from: 120, rank_to: 1120}, …]
 */
export function planPages(found: Pick<FindResult, 'segment_by_shard' | 'shard_ids'>, pageSize: number): PageRange[] {
  if (!Number.isSafeInteger(pageSize) || pageSize < 1)
    throw new RangeError(`pageSize must be a positive integer, got ${pageSize}`);
  const pages: PageRange[] = [];
  found.segment_by_shard.forEach(([lo, hi], i) => {
    const shardId = found.shard_ids[i];
    if (shardId === undefined) throw new RangeError('segment_by_shard and shard_ids differ in length');
    for (let from = lo; from < hi; from += pageSize)
      pages.push({ shard_id: shardId, rank_from: from, rank_to: Math.min(hi, from + pageSize) });
  });
  return pages;
}

/**
 * Query-wide totals by the spec's rule: examine every page, merge records with equal (year, doc_ix), count the
 * merged records (articles) and sum their occurrences. Page counts cannot simply be added: a document can occur
 * on adjacent pages.
 */
export class QueryTotals {
  readonly #occurrences = new Map<string, number>();
  #pages = 0;

  add(page: Pick<DocumentsResult, 'documents'>): void {
    this.#pages++;
    for (const d of page.documents) {
      const key = `${d.year}\u0000${d.doc_ix}`;
      this.#occurrences.set(key, (this.#occurrences.get(key) ?? 0) + d.occurrences);
    }
  }

  get pages(): number {
    return this.#pages;
  }

  get articles(): number {
    return this.#occurrences.size;
  }

  get occurrences(): number {
    let sum = 0;
    for (const n of this.#occurrences.values()) sum += n;
    return sum;
  }
}
