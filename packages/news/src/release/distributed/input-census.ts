import { createHash } from 'node:crypto';
import type { ArticleRecord } from '../../corpus/index.ts';

/**
 * What a part build learned about the WHOLE input, so that assemble can tell that every part read the same input
 * and that no crawl year was left out. `sha256` covers every accepted record in input order (its text hash, metadata
 * fields and scores), so two inputs with the same articles in the same order agree wherever their files live.
 */
export interface InputIdentity {
  readonly sha256: string;
  readonly records: number;
  readonly skipped: number;
  /** Accepted articles per crawl year, ascending by year, and per crawl month (`YYYY-MM`). */
  readonly years: readonly { readonly year: string; readonly documents: number }[];
  readonly months: readonly { readonly month: string; readonly documents: number }[];
}

/** Accumulates the {@link InputIdentity} while the builder streams the input. Cost: one short hash update per record. */
export class InputCensus {
  private readonly hash = createHash('sha256');
  private readonly years = new Map<string, number>();
  private readonly months = new Map<string, number>();
  private records = 0;

  add(record: ArticleRecord): void {
    this.hash.update(JSON.stringify([record.textXxhash64, record.fields, record.scores]));
    this.hash.update('\n');
    this.years.set(record.crawl.year, (this.years.get(record.crawl.year) ?? 0) + 1);
    const month = `${record.crawl.year}-${String(record.crawl.month).padStart(2, '0')}`;
    this.months.set(month, (this.months.get(month) ?? 0) + 1);
    this.records++;
  }

  finish(skipped: number): InputIdentity {
    const sorted = (m: Map<string, number>): [string, number][] => [...m].sort(([a], [b]) => (a < b ? -1 : 1));
    return {
      sha256: this.hash.digest('hex'),
      records: this.records,
      skipped,
      years: sorted(this.years).map(([year, documents]) => ({ year, documents })),
      months: sorted(this.months).map(([month, documents]) => ({ month, documents })),
    };
  }
}
