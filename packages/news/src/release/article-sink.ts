import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ArticleRecord } from '../corpus/index.ts';
import { createYearStoreWriter, type CountryTable, type YearShardPlan, type YearStoreWriter } from '../metadata/index.ts';
import { createShardWriter, MAX_SHARD_TEXT_BYTES, type ShardWriter } from '../shard/index.ts';
import type { ShardPeriod } from './build-options.ts';
import { BuildError } from './errors.ts';
import { resolveRel, shardRelDir, yearStoreRelPath } from './layout.ts';
import { MonthSpool } from './month-spool.ts';
import type { ArticleMetadata } from './types.ts';

/** A shard whose text is complete, ready for its suffix array. */
export interface ClosedShard {
  readonly shardId: string;
  readonly year: string;
  readonly relDir: string;
  /** doc_ix of the shard's first article within its year. */
  readonly docBase: number;
  readonly textBytes: number;
  readonly docCount: number;
}

interface MonthState {
  count: number;
  textBytes: number;
  /** Yearly shards only: the month's texts, written into the year's shard in month order at the end. */
  spool?: MonthSpool;
  /** Monthly shards only: the month's shard writer. */
  writer?: ShardWriter;
}

/**
 * Routes each article to its crawl period and its year's metadata store, in input order. doc_ix orders a year's
 * articles by (month, input order) whatever the shard period, so it is known only once every month is counted:
 * metadata is staged by (month, index in month), and yearly shards are assembled from per-month spools.
 */
export class ArticleSink {
  private readonly months = new Map<string, Map<number, MonthState>>();
  private readonly stores = new Map<string, YearStoreWriter>();
  textBytes = 0;

  constructor(
    private readonly root: string,
    private readonly indexName: string,
    private readonly period: ShardPeriod,
    private readonly countries: CountryTable | undefined,
  ) {}

  add(record: ArticleRecord): void {
    const { year, month } = record.crawl;
    const state = this.monthState(year, month);
    const yearBytes = this.period === 'year' ? [...(this.months.get(year)?.values() ?? [])].reduce((n, m) => n + m.textBytes, 0) : state.textBytes;
    // +1 for the 0xFF separator in front of every article.
    if (yearBytes + record.textBytes.length + 1 > MAX_SHARD_TEXT_BYTES) {
      throw new BuildError('shard_too_large', `shard ${this.period === 'year' ? year : monthId(year, month)} would pass ${MAX_SHARD_TEXT_BYTES} text bytes, the largest shard the index supports; build with --period month or split the input into smaller periods`);
    }
    if (state.writer) state.writer.append(record.textBytes);
    else state.spool?.append(record.textBytes);
    const localDoc = state.count++;
    state.textBytes += record.textBytes.length + 1;
    this.textBytes += record.textBytes.length + 1;
    this.store(year).add({
      month, localDoc, shardId: this.period === 'year' ? year : monthId(year, month),
      textBytes: record.textBytes.length, metadata: this.metadataOf(record),
    });
  }

  /** Per year, its months in order with the doc_ix of each month's first article. */
  yearPlans(): Map<string, YearShardPlan[]> {
    const plans = new Map<string, YearShardPlan[]>();
    for (const [year, months] of this.months) {
      let base = 0;
      const plan: YearShardPlan[] = [];
      for (const month of [...months.keys()].sort((a, b) => a - b)) {
        const count = months.get(month)?.count ?? 0;
        plan.push({ month, docBase: base, docCount: count });
        base += count;
      }
      plans.set(year, plan);
    }
    return plans;
  }

  /** Writes every year's final metadata store in doc_ix order; returns the number of years. */
  async finishStores(indexVersion: string): Promise<number> {
    const plans = this.yearPlans();
    for (const [year, writer] of this.stores) await writer.finish(plans.get(year) ?? [], indexVersion);
    return this.stores.size;
  }

  /**
   * Completes every shard's text and forgets the writers (their write buffers must not stay alive while suffix
   * arrays are sorted). Returns the shards in chronological order.
   */
  async finishShards(): Promise<ClosedShard[]> {
    const closed: ClosedShard[] = [];
    for (const [year, plan] of [...this.yearPlans()].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const months = this.months.get(year) as Map<number, MonthState>;
      if (this.period === 'month') {
        for (const p of plan) {
          const m = months.get(p.month) as MonthState;
          await m.writer?.finish();
          const shardId = monthId(year, p.month);
          closed.push({ shardId, year, relDir: shardRelDir(this.indexName, shardId), docBase: p.docBase, textBytes: m.textBytes, docCount: m.count });
          m.writer = undefined;
        }
        continue;
      }
      const relDir = shardRelDir(this.indexName, year);
      mkdirSync(resolveRel(this.root, relDir), { recursive: true });
      const writer = createShardWriter(resolveRel(this.root, relDir));
      for (const p of plan) {
        const m = months.get(p.month) as MonthState;
        if (m.spool) for await (const text of m.spool.drain()) writer.append(text);
        m.spool = undefined;
      }
      await writer.finish();
      closed.push({ shardId: year, year, relDir, docBase: 0, textBytes: writer.textBytes, docCount: writer.docCount });
    }
    return closed;
  }

  /** Closes every open file after a failed build (the caller removes the folder). */
  abort(): void {
    for (const w of this.stores.values()) w.abort();
    for (const months of this.months.values()) for (const m of months.values()) m.spool?.close();
  }

  private monthState(year: string, month: number): MonthState {
    let months = this.months.get(year);
    if (!months) this.months.set(year, (months = new Map()));
    let state = months.get(month);
    if (!state) {
      state = { count: 0, textBytes: 0 };
      if (this.period === 'month') {
        const dir = resolveRel(this.root, shardRelDir(this.indexName, monthId(year, month)));
        mkdirSync(dir, { recursive: true });
        state.writer = createShardWriter(dir);
      } else {
        const dir = resolveRel(this.root, 'spool');
        mkdirSync(dir, { recursive: true });
        state.spool = new MonthSpool(resolveRel(dir, `${monthId(year, month)}.spool`));
      }
      months.set(month, state);
    }
    return state;
  }

  private store(year: string): YearStoreWriter {
    let w = this.stores.get(year);
    if (!w) {
      const path = resolveRel(this.root, yearStoreRelPath(this.indexName, year));
      mkdirSync(dirname(path), { recursive: true });
      w = createYearStoreWriter(path, `${path}.staging`, year);
      this.stores.set(year, w);
    }
    return w;
  }

  private metadataOf(r: ArticleRecord): ArticleMetadata {
    const f = r.fields;
    // Country attribution comes only from the release's table, so every article of a release is attributed alike.
    const c = this.countries?.lookup(f.hostname);
    return {
      url: f.url, title: f.title, author: f.author, sitename: f.sitename, hostname: f.hostname,
      warc_source: f.warc_source, warc_record_id: f.warc_record_id, warc_date: f.warc_date,
      publish_date: f.publish_date, date: f.publish_date ?? f.warc_date, date_source: f.date_source,
      language: f.language, lang: f.lang, country_tld: f.country_tld,
      country: c?.country ?? null, country_source: c?.country_source ?? null, country_confidence: c?.country_confidence ?? null,
      iptc_topic: f.iptc_topic, scores: r.scores, text_xxhash64: r.textXxhash64,
    };
  }
}

const monthId = (year: string, month: number): string => `${year}-${String(month).padStart(2, '0')}`;
