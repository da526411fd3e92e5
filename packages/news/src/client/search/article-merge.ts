import type { ArticleMetadata, DocumentsResponse } from '../api/types.ts';

/** One article assembled from every examined page it occurs on. */
export interface MergedArticle {
  readonly key: string;
  readonly year: string;
  readonly docIx: number;
  /** Occurrences on the examined pages, summed across pages. */
  occurrences: number;
  /** Shard and rank of its first examined occurrence (what get_doc needs for a snippet). */
  readonly firstShardId: string;
  readonly firstRank: number;
  readonly metadata: ArticleMetadata;
}

/** An examined rank interval of one shard, half-open. */
export interface ExaminedInterval {
  readonly shardId: string;
  readonly rankFrom: number;
  readonly rankTo: number;
}

export interface ExaminationTotals {
  /** Ranks (occurrences of the phrase) examined, filters not applied. */
  readonly examinedOccurrences: number;
  /** Occurrences in articles that pass the filters. */
  readonly matchingOccurrences: number;
  /** Distinct articles that pass the filters, merged by (year, doc_ix). */
  readonly matchingArticles: number;
}

export function articleKey(year: string, docIx: number): string {
  return `${year}:${docIx}`;
}

/**
 * Accumulates documents pages into articles merged by (year, doc_ix): an article can occur on adjacent pages,
 * so page counts are never added up as article counts (spec §4, query-wide totals).
 */
export class ArticleSet {
  private readonly byKey = new Map<string, MergedArticle>();
  private readonly intervals: ExaminedInterval[] = [];
  private examined = 0;
  private matching = 0;

  /** Adds one page; returns the articles it added (not those it only extended). */
  addPage(page: DocumentsResponse): MergedArticle[] {
    const added: MergedArticle[] = [];
    for (const doc of page.documents) {
      const key = articleKey(doc.year, doc.doc_ix);
      const known = this.byKey.get(key);
      if (known !== undefined) {
        known.occurrences += doc.occurrences;
        continue;
      }
      const article: MergedArticle = {
        key,
        year: doc.year,
        docIx: doc.doc_ix,
        occurrences: doc.occurrences,
        firstShardId: page.shard_id,
        firstRank: doc.first_rank,
        metadata: doc.metadata,
      };
      this.byKey.set(key, article);
      added.push(article);
    }
    this.addInterval({ shardId: page.shard_id, rankFrom: page.rank_from, rankTo: page.rank_to });
    this.examined += page.page_occurrences;
    this.matching += page.page_matching_occurrences;
    return added;
  }

  /** Articles in order of first examined occurrence. */
  articles(): MergedArticle[] {
    return [...this.byKey.values()];
  }

  get(key: string): MergedArticle | undefined {
    return this.byKey.get(key);
  }

  /** Examined intervals; adjacent intervals of one shard are joined. */
  examinedIntervals(): ExaminedInterval[] {
    return this.intervals.map((i) => ({ ...i }));
  }

  totals(): ExaminationTotals {
    return {
      examinedOccurrences: this.examined,
      matchingOccurrences: this.matching,
      matchingArticles: this.byKey.size,
    };
  }

  private addInterval(next: ExaminedInterval): void {
    const last = this.intervals.at(-1);
    if (last !== undefined && last.shardId === next.shardId && last.rankTo === next.rankFrom) {
      this.intervals[this.intervals.length - 1] = { ...last, rankTo: next.rankTo };
    } else {
      this.intervals.push(next);
    }
  }
}

/** `2024-05:[0,1000) 2024-06:[0,240)`: a compact text form of examined intervals for CSV and the page. */
export function formatIntervals(intervals: readonly ExaminedInterval[]): string {
  return intervals.map((i) => `${i.shardId}:[${i.rankFrom},${i.rankTo})`).join(' ');
}
