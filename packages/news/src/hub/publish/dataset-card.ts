import { HUB_COLUMNS, HUB_MANIFEST_FILE, HUB_RELEASE_FILE, type HubManifest, type HubRelease } from '../layout.ts';

/** The dataset card (README.md) of a hub copy: what it is, its release, its layout and how to verify a row. */
export function datasetCard(identity: HubRelease, manifest: HubManifest): string {
  const years = manifest.years.map((y) => `| ${y.year} | ${y.rows} | ${y.partitions.length} |`).join('\n');
  return `---
configs:
- config_name: ${identity.index}
  data_files: "data/${identity.index}/*/*.parquet"
---
# News corpus, release ${identity.index_version}

Copy of the \`${identity.index}\` index of the news corpus search service, release \`${identity.index_version}\`:
${identity.total_rows} articles, one row each, with all metadata and the text exactly as indexed.

## Layout (format ${identity.format} v${identity.format_version})
- \`${HUB_RELEASE_FILE}\`: the release identity (\`index_version\`); it equals the API's \`index_version\`.
- \`${HUB_MANIFEST_FILE}\`: rows per shard (crawl period), per crawl year and per partition.
- \`data/${identity.index}/year=YYYY/part-NNNNN.parquet\`: rows in \`doc_ix\` order; partition rows start at
  \`first_doc_ix\` in the manifest, so article \`(year, doc_ix)\` is row \`doc_ix - first_doc_ix\` of one partition.

Columns: ${HUB_COLUMNS.map((c) => `\`${c}\``).join(', ')}. \`scores\` is JSON text; \`text_xxhash64\` is a decimal
string (${identity.text_hash}); read it as text to keep every digit.

| year | rows | partitions |
|---|---|---|
${years}

## Verified retrieval
The service's \`GET /api/v2/info\` returns a Python recipe that pins one commit of this repository, checks the
release identity and row counts, downloads each needed partition once, and verifies \`warc_record_id\` and
\`text_xxhash64\` of every row against the API. Row links of the dataset viewer are not stable and are not used.
`;
}
