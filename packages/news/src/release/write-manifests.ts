import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { METADATA_STORE_FORMAT_VERSION, type CountryTable } from '../metadata/index.ts';
import { shardFormatVersionOf } from '../shard/index.ts';
import type { BuildReleaseOptions } from './build-options.ts';
import { digestFile } from './file-digest.ts';
import type { IndexedShard } from './index-shards.ts';
import { countriesRelPath, INDEX_MANIFEST_FILE, METADATA_MANIFEST_FILE, resolveRel, yearStoreRelPath } from './layout.ts';
import {
  INDEX_MANIFEST_FORMAT, MANIFEST_FORMAT_VERSION, METADATA_MANIFEST_FORMAT, type IndexManifest, type MetadataManifest,
} from './manifest.ts';

export interface ManifestInput {
  readonly root: string;
  readonly options: BuildReleaseOptions;
  readonly indexed: readonly IndexedShard[];
  readonly countries: CountryTable | undefined;
  readonly writeCountries: (path: string, table: CountryTable) => Promise<void>;
}

export interface ReleaseTotals {
  readonly documents: number;
  readonly textBytes: number;
  /** Shard files plus metadata files. */
  readonly indexBytes: number;
  readonly metadataBytes: number;
}

/**
 * Writes the metadata-store manifest and the full-text index manifest. Both name the release, the shard set
 * (id, year, doc_base, doc_count) and the format versions, so a worker can refuse a release whose halves differ.
 */
export async function writeManifests(input: ManifestInput): Promise<ReleaseTotals> {
  const { root, options, indexed, countries } = input;
  const name = options.indexName;
  const createdAt = new Date().toISOString();
  const shardRefs = indexed.map((s) => ({ shard_id: s.shardId, year: s.year, doc_base: s.docBase, doc_count: s.files.docCount }));

  const years: MetadataManifest['indexes'][number]['years'] = [];
  for (const year of [...new Set(indexed.map((s) => s.year))].sort()) {
    const file = yearStoreRelPath(name, year);
    const docCount = indexed.filter((s) => s.year === year).reduce((n, s) => n + s.files.docCount, 0);
    years.push({ year, doc_count: docCount, file, ...(await digestFile(resolveRel(root, file))) });
  }
  let countriesEntry: MetadataManifest['indexes'][number]['countries'] = null;
  if (countries) {
    const file = countriesRelPath(name);
    await input.writeCountries(resolveRel(root, file), countries);
    countriesEntry = { rows: countries.rows, file, ...(await digestFile(resolveRel(root, file))) };
  }
  const metadataBytes = years.reduce((n, y) => n + y.bytes, 0) + (countriesEntry?.bytes ?? 0);
  const documents = indexed.reduce((n, s) => n + s.files.docCount, 0);

  const metadataManifest: MetadataManifest = {
    format: METADATA_MANIFEST_FORMAT, format_version: MANIFEST_FORMAT_VERSION, index_version: options.indexVersion, created_at: createdAt,
    indexes: [{
      name, store_format_version: METADATA_STORE_FORMAT_VERSION, shard_format_version: shardFormatVersionOf(options.kind),
      shards: shardRefs, years, countries: countriesEntry, totals: { documents, bytes: metadataBytes },
    }],
  };
  const textBytes = indexed.reduce((n, s) => n + s.files.textBytes, 0);
  const shardBytes = indexed.reduce((n, s) => n + s.files.files.reduce((m, f) => m + f.bytes, 0), 0);
  const indexManifest: IndexManifest = {
    format: INDEX_MANIFEST_FORMAT, format_version: MANIFEST_FORMAT_VERSION, index_version: options.indexVersion, created_at: createdAt,
    indexes: [{
      name, period: options.period, shard_format_version: shardFormatVersionOf(options.kind),
      shards: indexed.map((s, i) => ({
        ...(shardRefs[i] as (typeof shardRefs)[number]), crawl_period: s.crawlPeriod, part: s.part, parts: s.parts,
        dir: s.relDir, kind: options.kind, format_version: s.files.formatVersion,
        text_bytes: s.files.textBytes, pointer_bytes: s.files.pointerBytes,
        files: s.files.files.map((f) => ({ name: f.name, bytes: f.bytes, sha256: f.sha256 })),
      })),
      totals: { documents, text_bytes: textBytes, index_bytes: shardBytes },
    }],
  };
  await writeFile(join(root, METADATA_MANIFEST_FILE), JSON.stringify(metadataManifest, null, 2) + '\n');
  await writeFile(join(root, INDEX_MANIFEST_FILE), JSON.stringify(indexManifest, null, 2) + '\n');
  return { documents, textBytes, indexBytes: shardBytes + metadataBytes, metadataBytes };
}
