import { ReleaseVerificationError } from './errors.ts';
import type { IndexManifest, MetadataManifest } from './manifest.ts';
import { partShardId } from './part-plan.ts';

/**
 * Checks that the two manifests describe the same release: identity, expected identity, index names, the exact
 * shard set (id, year, doc_base, doc_count), shard format version, and per-year counts (unless `wholeYears` is false:
 * a release part). Throws on the first difference.
 */
export function checkManifestsAgree(
  dir: string,
  index: IndexManifest,
  meta: MetadataManifest,
  expectedIndexVersion?: string,
  wholeYears = true,
): void {
  const refuse = (what: string): never => {
    throw new ReleaseVerificationError(
      'manifest_mismatch',
      `release ${dir} is inconsistent: ${what}; rebuild it with news build (do not mix files of two builds)`,
    );
  };
  if (index.index_version !== meta.index_version) {
    refuse(
      `index-manifest.json names release ${JSON.stringify(index.index_version)} but metadata-manifest.json names ${JSON.stringify(meta.index_version)}`,
    );
  }
  if (expectedIndexVersion !== undefined && index.index_version !== expectedIndexVersion) {
    throw new ReleaseVerificationError(
      'index_version_mismatch',
      `release ${dir} is ${JSON.stringify(index.index_version)}, expected ${JSON.stringify(expectedIndexVersion)}; pass the matching --index-version (or GATEWAY_INDEX_VERSION) or point to the release built as ${JSON.stringify(expectedIndexVersion)}`,
    );
  }
  const names = (m: { indexes: { name: string }[] }): string => m.indexes.map((i) => i.name).join(',');
  if (names(index) !== names(meta))
    refuse(`the index manifest has indexes [${names(index)}], the metadata manifest [${names(meta)}]`);

  index.indexes.forEach((ix, i) => {
    const mx = meta.indexes[i];
    if (!mx) return;
    if (ix.shard_format_version !== mx.shard_format_version) {
      refuse(
        `index ${ix.name}: shard format version ${ix.shard_format_version} in the index manifest, ${mx.shard_format_version} in the metadata manifest`,
      );
    }
    const a = ix.shards.map((s) => `${s.shard_id}`).join(',');
    const b = mx.shards.map((s) => `${s.shard_id}`).join(',');
    if (a !== b) refuse(`index ${ix.name}: shard sets differ (index manifest [${a}], metadata manifest [${b}])`);
    ix.shards.forEach((s, k) => {
      const t = mx.shards[k];
      if (t && (s.year !== t.year || s.doc_base !== t.doc_base || s.doc_count !== t.doc_count)) {
        refuse(
          `index ${ix.name}: shard ${s.shard_id} is year ${s.year} docs ${s.doc_base}+${s.doc_count} in the index manifest, year ${t.year} docs ${t.doc_base}+${t.doc_count} in the metadata manifest`,
        );
      }
      const id = s.parts === 1 ? s.crawl_period : partShardId(s.crawl_period, s.part - 1);
      const prev = ix.shards[k - 1];
      const expectedPart = prev?.crawl_period === s.crawl_period ? prev.part + 1 : 1;
      if (
        s.shard_id !== id ||
        s.part !== expectedPart ||
        s.part > s.parts ||
        (s.part === s.parts) !== (ix.shards[k + 1]?.crawl_period !== s.crawl_period)
      ) {
        refuse(
          `index ${ix.name}: shard ${s.shard_id} is listed as part ${s.part} of ${s.parts} of ${s.crawl_period}, out of order or misnamed`,
        );
      }
      if (s.format_version !== ix.shard_format_version)
        refuse(
          `index ${ix.name}: shard ${s.shard_id} has format version ${s.format_version}, the index ${ix.shard_format_version}`,
        );
    });
    const shardYears = [...new Set(ix.shards.map((s) => s.year))].sort().join(',');
    const storeYears = mx.years.map((y) => y.year).join(',');
    if (shardYears !== storeYears)
      refuse(`index ${ix.name}: shards cover years [${shardYears}] but metadata stores exist for [${storeYears}]`);
    // A release part may hold some months of a year beside the whole year's store (distributed/, DESIGN.md).
    for (const y of wholeYears ? mx.years : []) {
      const docs = ix.shards.filter((s) => s.year === y.year).reduce((n, s) => n + s.doc_count, 0);
      if (docs !== y.doc_count)
        refuse(
          `index ${ix.name}: year ${y.year} has ${docs} articles in its shards but ${y.doc_count} in its metadata store`,
        );
    }
  });
}
