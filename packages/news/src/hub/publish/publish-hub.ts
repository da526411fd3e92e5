import { createHash } from 'node:crypto';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { openRelease } from '../../release/index.ts';
import type { ArticleMetadata, ReleaseIndex } from '../../release/index.ts';
import {
  DEFAULT_PARTITION_ROWS,
  HUB_COLUMNS,
  HUB_FORMAT,
  HUB_FORMAT_VERSION,
  HUB_MANIFEST_FILE,
  HUB_RELEASE_FILE,
  checkHubManifest,
  partitionPath,
  type HubColumn,
  type HubManifest,
  type HubPartition,
  type HubRelease,
} from '../layout.ts';
import { datasetCard } from './dataset-card.ts';

export interface PublishHubOptions {
  /** Release directory built by `news build`. */
  readonly release: string;
  readonly out: string;
  readonly index: string;
  readonly partitionRows: number;
  /** Replace a non-empty `out`. */
  readonly force: boolean;
}

export const defaultPublishHubOptions = { index: 'news', partitionRows: DEFAULT_PARTITION_ROWS, force: false } as const;

export class PublishHubError extends Error {
  override readonly name = 'PublishHubError';
}

export interface PublishHubSummary {
  readonly out: string;
  readonly indexVersion: string;
  readonly rows: number;
  readonly partitions: number;
  readonly bytes: number;
}

type Row = Record<HubColumn, string | number | null>;

function rowOf(year: string, docIx: number, shardId: string, m: ArticleMetadata, text: string): Row {
  return {
    year,
    doc_ix: docIx,
    shard_id: shardId,
    warc_record_id: m.warc_record_id,
    text_xxhash64: m.text_xxhash64,
    url: m.url,
    title: m.title,
    author: m.author,
    sitename: m.sitename,
    hostname: m.hostname,
    warc_source: m.warc_source,
    warc_date: m.warc_date,
    publish_date: m.publish_date,
    date: m.date,
    date_source: m.date_source,
    language: m.language,
    lang: m.lang,
    country_tld: m.country_tld,
    country: m.country,
    country_source: m.country_source,
    country_confidence: m.country_confidence,
    iptc_topic: m.iptc_topic,
    scores: m.scores === null ? null : JSON.stringify(m.scores),
    text,
  };
}

function parquetOf(rows: readonly Row[]): Buffer {
  const columnData = HUB_COLUMNS.map((name) => ({
    name,
    data: rows.map((r) => r[name]),
    type: name === 'doc_ix' ? ('INT64' as const) : ('STRING' as const),
    nullable: name !== 'year' && name !== 'doc_ix' && name !== 'shard_id' && name !== 'text',
  }));
  // doc_ix as BigInt: INT64 columns take bigint values.
  const docIx = columnData.find((c) => c.name === 'doc_ix');
  if (docIx) docIx.data = rows.map((r) => BigInt(r.doc_ix as number)) as never;
  return Buffer.from(
    parquetWriteBuffer({ columnData: columnData as never, rowGroupSize: 1000, createdBy: 'news publish-hub' }),
  );
}

/** Rows of one year in doc_ix order, assembled from its shards (chronological) and its metadata store. */
function* yearRows(index: ReleaseIndex, year: string): Generator<Row> {
  const store = index.metadata(year);
  if (store === undefined)
    throw new PublishHubError(`the release has no metadata store for year ${year}; rebuild it with news build`);
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let expected = 0;
  for (const shard of index.shards.filter((s) => s.year === year)) {
    if (shard.docBase !== expected)
      throw new PublishHubError(`shard ${shard.shardId} starts at doc_ix ${shard.docBase}, expected ${expected}`);
    for (let doc = 0; doc < shard.reader.stats.docCount; doc++) {
      const docIx = shard.docBase + doc;
      const m = store.get(docIx);
      if (m === undefined) throw new PublishHubError(`year ${year} has no metadata for doc_ix ${docIx}`);
      yield rowOf(year, docIx, shard.shardId, m, decoder.decode(shard.reader.documentBytes(doc)));
    }
    expected += shard.reader.stats.docCount;
  }
  if (expected !== store.docCount)
    throw new PublishHubError(`year ${year}: shards hold ${expected} articles, its metadata store ${store.docCount}`);
}

/**
 * Writes the hub layout of a release: Parquet partitions per crawl year (rows in doc_ix order, all metadata plus
 * text), the shard manifest with row counts and the release identity, and a dataset card.
 * @example await publishHub({ ...defaultPublishHubOptions, release: 'rel/', out: 'hub/' })
 */
export async function publishHub(options: PublishHubOptions): Promise<PublishHubSummary> {
  if (!Number.isInteger(options.partitionRows) || options.partitionRows < 1)
    throw new PublishHubError('--partition-rows must be a positive integer');
  const existing = await readdir(options.out).catch(() => []);
  if (existing.length > 0) {
    if (!options.force)
      throw new PublishHubError(`${options.out} is not empty; choose an empty directory or pass --force to replace it`);
    await rm(options.out, { recursive: true, force: true });
  }
  const release = await openRelease(options.release, { mode: 'disk' });
  try {
    const index = release.indexes.get(options.index);
    if (index === undefined)
      throw new PublishHubError(
        `release ${options.release} has no index ${JSON.stringify(options.index)}; it has ${[...release.indexes.keys()].join(', ')}`,
      );
    const years = [...new Set(index.shards.map((s) => s.year))];
    const manifestYears: HubManifest['years'][number][] = [];
    let bytes = 0;
    for (const year of years) {
      const partitions: HubPartition[] = [];
      let batch: Row[] = [];
      let first = 0;
      const flush = async () => {
        if (batch.length === 0) return;
        const path = partitionPath(options.index, year, partitions.length);
        const body = parquetOf(batch);
        await mkdir(dirname(join(options.out, path)), { recursive: true });
        await writeFile(join(options.out, path), body);
        partitions.push({
          path,
          first_doc_ix: first,
          rows: batch.length,
          bytes: body.length,
          sha256: createHash('sha256').update(body).digest('hex'),
        });
        bytes += body.length;
        first += batch.length;
        batch = [];
      };
      for (const row of yearRows(index, year)) {
        batch.push(row);
        if (batch.length >= options.partitionRows) await flush();
      }
      await flush();
      manifestYears.push({ year, rows: first, partitions });
    }
    const total = manifestYears.reduce((n, y) => n + y.rows, 0);
    const manifest: HubManifest = checkHubManifest({
      format: HUB_FORMAT,
      format_version: HUB_FORMAT_VERSION,
      index_version: release.indexVersion,
      index: options.index,
      total_rows: total,
      shards: index.shards.map((s) => ({
        shard_id: s.shardId,
        year: s.year,
        first_doc_ix: s.docBase,
        rows: s.reader.stats.docCount,
      })),
      years: manifestYears,
    });
    const identity: HubRelease = {
      format: HUB_FORMAT,
      format_version: HUB_FORMAT_VERSION,
      index_version: release.indexVersion,
      index: options.index,
      text_hash: 'xxhash64, seed 0, over the UTF-8 bytes of text, unsigned decimal string',
      total_rows: total,
    };
    await mkdir(options.out, { recursive: true });
    await writeFile(join(options.out, HUB_MANIFEST_FILE), JSON.stringify(manifest, null, 2) + '\n');
    await writeFile(join(options.out, HUB_RELEASE_FILE), JSON.stringify(identity, null, 2) + '\n');
    await writeFile(join(options.out, 'README.md'), datasetCard(identity, manifest));
    return {
      out: options.out,
      indexVersion: release.indexVersion,
      rows: total,
      partitions: manifestYears.reduce((n, y) => n + y.partitions.length, 0),
      bytes,
    };
  } finally {
    release.close();
  }
}
