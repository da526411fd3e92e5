import { mkdirSync, renameSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ArticleRecord } from '../corpus/index.ts';
import {
  createYearStoreWriter,
  type CountryTable,
  type YearShardPlan,
  type YearStoreWriter,
} from '../metadata/index.ts';
import type { ShardPeriod } from './build-options.ts';
import { BuildError } from './errors.ts';
import { resolveRel, shardRelDir, yearStoreRelPath } from './layout.ts';
import { MonthSpool } from './month-spool.ts';
import { createPartWriter, headlineBytes, type PartWriter } from './part-writer.ts';
import { MAX_PART_BYTES, MAX_PARTS_PER_PERIOD, partShardId } from './part-plan.ts';
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
  /** The crawl period (`YYYY-MM` or `YYYY`) and this shard's place among its parts (1-based; 1 of 1 when whole). */
  readonly crawlPeriod: string;
  readonly part: number;
  readonly parts: number;
}

/** One part being filled: a shard writer plus where its articles start in the period. */
interface OpenPart {
  readonly writer: PartWriter;
  /** doc_ix of its first article within the year. */
  readonly docBase: number;
}

interface MonthState {
  count: number;
  textBytes: number;
  /** False for a month outside this part (`--only-periods`): only counted and cut, for its year's metadata store. */
  readonly written: boolean;
  /** Yearly shards only: the month's texts and headlines, written into the year's parts in month order at the end. */
  spool?: MonthSpool;
  titleSpool?: MonthSpool;
  /** Monthly shards only: each part's first article (index in the month) and text size; the last one is open. */
  parts: { readonly from: number; textBytes: number }[];
  writer?: PartWriter;
}

/** A run of one month's articles inside one part, before the period's part count (and so its shard ids) is known. */
interface PartRun {
  readonly month: number;
  readonly localFrom: number;
  readonly docBase: number;
  docCount: number;
  readonly part: number;
}

/**
 * Routes each article to its crawl period and its year's metadata store, in input order. doc_ix orders a year's
 * articles by (month, input order) whatever the shard period, so it is known only once every month is counted:
 * metadata is staged by (month, index in month), and yearly shards are assembled from per-month spools.
 * A period is cut into parts of at most `partBytes` text bytes (part-plan.ts); part directories are named
 * `<period>.pNNN` while written and renamed to `<period>` when the period fits one part.
 */
export class ArticleSink {
  private readonly months = new Map<string, Map<number, MonthState>>();
  private readonly stores = new Map<string, YearStoreWriter>();
  private readonly storePlans = new Map<string, YearShardPlan[]>();
  textBytes = 0;
  /** Articles written into shards (all of them unless `writes` leaves months out). */
  writtenDocs = 0;

  constructor(
    private readonly root: string,
    private readonly indexName: string,
    private readonly period: ShardPeriod,
    private readonly countries: CountryTable | undefined,
    private readonly partBytes: number,
    /** Which months get shards; the others of the same years still go to the metadata store (distributed builds). */
    private readonly writes: (year: string, month: number) => boolean = () => true,
    /** A month's part is complete (the next one opened): its id and text are final, its index can start. */
    private readonly onPartClosed: (part: { shardId: string; relDir: string; textBytes: number }) => void = () => {},
  ) {}

  async add(record: ArticleRecord): Promise<void> {
    const { year, month } = record.crawl;
    const bytes = record.textBytes.length + 1; // +1 for the 0xFF separator in front of every article
    if (bytes > MAX_PART_BYTES) {
      throw new BuildError(
        'shard_too_large',
        `an article of ${monthId(year, month)} has ${bytes} text bytes, more than the largest shard the index can sort (${MAX_PART_BYTES}); leave it out of the input`,
      );
    }
    const state = this.monthState(year, month);
    if (state.writer) {
      if (state.writer.docCount > 0 && state.writer.textBytes + bytes > this.partBytes)
        await this.nextMonthPart(year, month, state);
      state.writer?.append(record.textBytes, headlineBytes(record.fields.title));
    } else if (state.spool) {
      state.spool.append(record.textBytes);
      state.titleSpool?.append(headlineBytes(record.fields.title));
    } else {
      // A month of another part: cut its parts exactly as its own part does, so the store names the same shard ids.
      const part = state.parts.at(-1) as { textBytes: number };
      if (part.textBytes > 0 && part.textBytes + bytes > this.partBytes)
        state.parts.push({ from: state.count, textBytes: 0 });
      (state.parts.at(-1) as { textBytes: number }).textBytes += bytes;
    }
    if (state.written) this.writtenDocs++;
    const localDoc = state.count++;
    state.textBytes += bytes;
    this.textBytes += bytes;
    this.store(year).add({ month, localDoc, textBytes: record.textBytes.length, metadata: this.metadataOf(record) });
  }

  /** Articles per crawl year, as the years' metadata stores hold them (every month, written or not). */
  yearDocCounts(): Map<string, number> {
    return new Map(
      [...this.months].map(([year, months]) => [year, [...months.values()].reduce((n, m) => n + m.count, 0)]),
    );
  }

  /** Writes every year's final metadata store in doc_ix order (after finishShards); returns the number of years. */
  async finishStores(indexVersion: string): Promise<number> {
    for (const [year, writer] of this.stores) await writer.finish(this.storePlans.get(year) ?? [], indexVersion);
    return this.stores.size;
  }

  /**
   * Completes every part's text and forgets the writers (their write buffers must not stay alive while suffix
   * arrays are sorted). Returns the shards (parts) in chronological order.
   */
  async finishShards(): Promise<ClosedShard[]> {
    const closed: ClosedShard[] = [];
    for (const year of [...this.months.keys()].sort()) {
      const months = this.months.get(year) as Map<number, MonthState>;
      const runs: PartRun[] = [];
      const plans: YearShardPlan[] = [];
      let base = 0;
      if (this.period === 'year') {
        const parts: OpenPart[] = [];
        for (const month of [...months.keys()].sort((a, b) => a - b)) {
          const m = months.get(month) as MonthState;
          let local = 0;
          const titles = m.titleSpool?.drain();
          for await (const text of m.spool?.drain() ?? []) {
            const next = await titles?.next();
            const title = next === undefined || next.done === true ? Buffer.alloc(0) : next.value;
            let part = parts.at(-1);
            if (!part || (part.writer.docCount > 0 && part.writer.textBytes + text.length + 1 > this.partBytes)) {
              await part?.writer.finish();
              parts.push((part = { writer: this.openPart(year, parts.length), docBase: base + local }));
            }
            const last = runs.at(-1);
            if (last?.month === month && last.part === parts.length - 1) last.docCount++;
            else runs.push({ month, localFrom: local, docBase: base + local, docCount: 1, part: parts.length - 1 });
            part.writer.append(text, title);
            local++;
          }
          await titles?.return(undefined);
          m.spool = undefined;
          m.titleSpool = undefined;
          base += m.count;
        }
        await parts.at(-1)?.writer.finish();
        closed.push(
          ...this.closePeriod(
            year,
            year,
            parts.map((p) => ({ docBase: p.docBase, textBytes: p.writer.textBytes })),
            runs,
            plans,
          ),
        );
      } else {
        for (const month of [...months.keys()].sort((a, b) => a - b)) {
          const m = months.get(month) as MonthState;
          await this.closeMonthPart(m);
          const parts = m.parts.map(({ from, textBytes }, i) => {
            const to = m.parts[i + 1]?.from ?? m.count;
            runs.push({ month, localFrom: from, docBase: base + from, docCount: to - from, part: i });
            return { docBase: base + from, textBytes };
          });
          closed.push(...this.closePeriod(year, monthId(year, month), parts, runs.splice(0), plans, m.written));
          base += m.count;
        }
      }
      this.storePlans.set(year, plans);
    }
    return closed;
  }

  /** Names a period's parts (renaming a lone part to the period id) and records their runs for the metadata store. */
  private closePeriod(
    year: string,
    periodId: string,
    parts: readonly { docBase: number; textBytes: number }[],
    runs: readonly PartRun[],
    plans: YearShardPlan[],
    written = true,
  ): ClosedShard[] {
    const idOf = (i: number): string => (parts.length === 1 ? periodId : partShardId(periodId, i));
    for (const r of runs)
      plans.push({
        month: r.month,
        localFrom: r.localFrom,
        docBase: r.docBase,
        docCount: r.docCount,
        shardId: idOf(r.part),
      });
    if (!written) return [];
    if (parts.length === 1) {
      renameSync(
        resolveRel(this.root, shardRelDir(this.indexName, partShardId(periodId, 0))),
        resolveRel(this.root, shardRelDir(this.indexName, periodId)),
      );
    }
    return parts.map((p, i) => {
      const relDir = shardRelDir(this.indexName, idOf(i));
      const count = runs.filter((r) => r.part === i).reduce((n, r) => n + r.docCount, 0);
      return {
        shardId: idOf(i),
        year,
        relDir,
        docBase: p.docBase,
        textBytes: p.textBytes,
        docCount: count,
        crawlPeriod: periodId,
        part: i + 1,
        parts: parts.length,
      };
    });
  }

  private openPart(periodId: string, index: number): PartWriter {
    if (index >= MAX_PARTS_PER_PERIOD) {
      throw new BuildError(
        'invalid_option',
        `period ${periodId} needs more than ${MAX_PARTS_PER_PERIOD} parts of --part-bytes ${this.partBytes}; raise --part-bytes`,
      );
    }
    return createPartWriter(resolveRel(this.root, shardRelDir(this.indexName, partShardId(periodId, index))));
  }

  private async closeMonthPart(state: MonthState): Promise<void> {
    const part = state.parts.at(-1);
    if (part && state.writer) part.textBytes = state.writer.textBytes;
    await state.writer?.finish();
    state.writer = undefined;
  }

  private async nextMonthPart(year: string, month: number, state: MonthState): Promise<void> {
    await this.closeMonthPart(state);
    // A second part is opening, so this one keeps its `.pNNN` id (only a lone part is renamed to the period id).
    const closed = state.parts.length - 1;
    const shardId = partShardId(monthId(year, month), closed);
    this.onPartClosed({
      shardId,
      relDir: shardRelDir(this.indexName, shardId),
      textBytes: (state.parts[closed] as { textBytes: number }).textBytes,
    });
    state.writer = this.openPart(monthId(year, month), state.parts.length);
    state.parts.push({ from: state.count, textBytes: 0 });
  }

  /** Closes every open file after a failed build (the caller removes the folder). */
  abort(): void {
    for (const w of this.stores.values()) w.abort();
    for (const months of this.months.values()) {
      for (const m of months.values()) {
        m.spool?.close();
        m.titleSpool?.close();
      }
    }
  }

  private monthState(year: string, month: number): MonthState {
    let months = this.months.get(year);
    if (!months) this.months.set(year, (months = new Map()));
    let state = months.get(month);
    if (!state) {
      state = { count: 0, textBytes: 0, parts: [], written: this.writes(year, month) };
      if (this.period === 'month') {
        if (state.written) state.writer = this.openPart(monthId(year, month), 0);
        state.parts.push({ from: 0, textBytes: 0 });
      } else {
        const dir = resolveRel(this.root, 'spool');
        mkdirSync(dir, { recursive: true });
        state.spool = new MonthSpool(resolveRel(dir, `${monthId(year, month)}.spool`));
        state.titleSpool = new MonthSpool(resolveRel(dir, `${monthId(year, month)}.titles.spool`));
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
      url: f.url,
      title: f.title,
      author: f.author,
      sitename: f.sitename,
      hostname: f.hostname,
      warc_source: f.warc_source,
      warc_record_id: f.warc_record_id,
      warc_date: f.warc_date,
      publish_date: f.publish_date,
      date: f.publish_date ?? f.warc_date,
      date_source: f.date_source,
      language: f.language,
      lang: f.lang,
      country_tld: f.country_tld,
      country: c?.country ?? null,
      country_source: c?.country_source ?? null,
      country_confidence: c?.country_confidence ?? null,
      iptc_topic: f.iptc_topic,
      scores: r.scores,
      text_xxhash64: r.textXxhash64,
    };
  }
}

const monthId = (year: string, month: number): string => `${year}-${String(month).padStart(2, '0')}`;
