import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { METADATA_STORE_FORMAT_VERSION, type CountryTable } from '../metadata/index.ts';
import { shardFormatVersionOf, type ShardFileSet, type ShardKind } from '../shard/index.ts';
import type { BuildReleaseOptions, ShardPeriod } from './build-options.ts';
import { digestFile } from './file-digest.ts';
import type { IndexedShard } from './index-shards.ts';
import {
  countriesRelPath,
  INDEX_MANIFEST_FILE,
  METADATA_MANIFEST_FILE,
  resolveRel,
  titlesRelDir,
  yearStoreRelPath,
} from './layout.ts';
import {
  INDEX_MANIFEST_FORMAT,
  MANIFEST_FORMAT_VERSION,
  METADATA_MANIFEST_FORMAT,
  type IndexManifest,
  type IndexManifestShard,
  type MetadataManifest,
  type StoriesEntry,
} from './manifest.ts';

export interface ManifestInput {
  readonly root: string;
  readonly options: BuildReleaseOptions;
  readonly indexed: readonly IndexedShard[];
  readonly countries: CountryTable | undefined;
  readonly writeCountries: (path: string, table: CountryTable) => Promise<void>;
  /**
   * Articles per year in the stores. A part build (`--only-periods` with some months of a year) writes the whole
   * year's store but only its months' shards, so the store counts more than the shards; absent: the shards' sum.
   */
  readonly yearDocCounts?: ReadonlyMap<string, number> | undefined;
  readonly stories?: StoriesEntry | undefined;
}

export interface ReleaseTotals {
  readonly documents: number;
  readonly textBytes: number;
  /** Shard files plus metadata files. */
  readonly indexBytes: number;
  readonly metadataBytes: number;
}

type MetadataIndex = MetadataManifest['indexes'][number];
export type YearStoreEntry = MetadataIndex['years'][number];
export type CountriesEntry = MetadataIndex['countries'];

/** Everything the two manifests say, before totals: what a build measured, or what assemble took from its parts. */
export interface ReleaseContents {
  readonly indexVersion: string;
  readonly indexName: string;
  readonly period: ShardPeriod;
  readonly kind: ShardKind;
  /** In chronological order. */
  readonly shards: readonly IndexManifestShard[];
  /** In year order. */
  readonly years: readonly YearStoreEntry[];
  readonly countries: CountriesEntry;
  /** Absent: the release has no story files (dedupe is refused). */
  readonly stories?: StoriesEntry | undefined;
}

/**
 * Writes the metadata-store manifest and the full-text index manifest of a finished build. Both name the release,
 * the shard set (id, year, doc_base, doc_count) and the format versions, so a worker can refuse a release whose
 * halves differ.
 */
export async function writeManifests(input: ManifestInput): Promise<ReleaseTotals> {
  const { root, options, indexed, countries } = input;
  const name = options.indexName;
  const shards: IndexManifestShard[] = indexed.map((s) => ({
    shard_id: s.shardId,
    year: s.year,
    doc_base: s.docBase,
    doc_count: s.files.docCount,
    crawl_period: s.crawlPeriod,
    part: s.part,
    parts: s.parts,
    dir: s.relDir,
    kind: options.kind,
    format_version: s.files.formatVersion,
    text_bytes: s.files.textBytes,
    pointer_bytes: s.files.pointerBytes,
    files: fileEntries(s.files),
    titles: {
      dir: titlesRelDir(s.relDir),
      format_version: s.titles.formatVersion,
      text_bytes: s.titles.textBytes,
      doc_count: s.titles.docCount,
      pointer_bytes: s.titles.pointerBytes,
      files: fileEntries(s.titles),
    },
    ...(s.wordCounts ? { word_counts: s.wordCounts } : {}),
  }));
  const years: YearStoreEntry[] = [];
  for (const year of [...new Set(indexed.map((s) => s.year))].sort()) {
    const file = yearStoreRelPath(name, year);
    const docCount =
      input.yearDocCounts?.get(year) ??
      indexed.filter((s) => s.year === year).reduce((n, s) => n + s.files.docCount, 0);
    years.push({ year, doc_count: docCount, file, ...(await digestFile(resolveRel(root, file))) });
  }
  let countriesEntry: CountriesEntry = null;
  if (countries) {
    const file = countriesRelPath(name);
    await input.writeCountries(resolveRel(root, file), countries);
    countriesEntry = { rows: countries.rows, file, ...(await digestFile(resolveRel(root, file))) };
  }
  return saveManifests(root, {
    indexVersion: options.indexVersion,
    indexName: name,
    period: options.period,
    kind: options.kind,
    shards,
    years,
    countries: countriesEntry,
    stories: input.stories,
  });
}

const fileEntries = (set: ShardFileSet): IndexManifestShard['files'] =>
  set.files.map((f) => ({ name: f.name, bytes: f.bytes, sha256: f.sha256 }));

/** Writes both manifests of `contents` into `root` (metadata first, index last) and returns the release totals. */
export async function saveManifests(root: string, contents: ReleaseContents): Promise<ReleaseTotals> {
  const { index, metadata, totals } = composeManifests(contents, new Date().toISOString());
  await writeFile(join(root, METADATA_MANIFEST_FILE), JSON.stringify(metadata, null, 2) + '\n');
  await writeFile(join(root, INDEX_MANIFEST_FILE), JSON.stringify(index, null, 2) + '\n');
  return totals;
}

/** The two manifests of a release (DESIGN.md, "Layout"); `created_at` is the only field not fixed by the contents. */
export function composeManifests(
  c: ReleaseContents,
  createdAt: string,
): { index: IndexManifest; metadata: MetadataManifest; totals: ReleaseTotals } {
  const shardFormatVersion = shardFormatVersionOf(c.kind);
  const metadataBytes = c.years.reduce((n, y) => n + y.bytes, 0) + (c.countries?.bytes ?? 0);
  const documents = c.shards.reduce((n, s) => n + s.doc_count, 0);
  const textBytes = c.shards.reduce((n, s) => n + s.text_bytes, 0);
  const bytesOf = (files: readonly { bytes: number }[] = []): number => files.reduce((m, f) => m + f.bytes, 0);
  const shardBytes = c.shards.reduce((n, s) => n + bytesOf(s.files) + bytesOf(s.titles?.files), 0);
  const metadata: MetadataManifest = {
    format: METADATA_MANIFEST_FORMAT,
    format_version: MANIFEST_FORMAT_VERSION,
    index_version: c.indexVersion,
    created_at: createdAt,
    indexes: [
      {
        name: c.indexName,
        store_format_version: METADATA_STORE_FORMAT_VERSION,
        shard_format_version: shardFormatVersion,
        shards: c.shards.map((s) => ({
          shard_id: s.shard_id,
          year: s.year,
          doc_base: s.doc_base,
          doc_count: s.doc_count,
        })),
        years: [...c.years],
        countries: c.countries,
        ...(c.stories ? { stories: c.stories } : {}),
        totals: { documents, bytes: metadataBytes },
      },
    ],
  };
  const index: IndexManifest = {
    format: INDEX_MANIFEST_FORMAT,
    format_version: MANIFEST_FORMAT_VERSION,
    index_version: c.indexVersion,
    created_at: createdAt,
    indexes: [
      {
        name: c.indexName,
        period: c.period,
        shard_format_version: shardFormatVersion,
        shards: [...c.shards],
        totals: { documents, text_bytes: textBytes, index_bytes: shardBytes },
      },
    ],
  };
  return { index, metadata, totals: { documents, textBytes, indexBytes: shardBytes + metadataBytes, metadataBytes } };
}
