export {
  createYearStoreWriter,
  type StagedArticle,
  type YearShardPlan,
  type YearStoreWriter,
} from './metadata-writer.ts';
export { openMetadataStore, MetadataStoreError, type OpenMetadataStoreOptions } from './metadata-store.ts';
export { loadCountryTable, CountryTableError, type CountryTable, type CountryAttribution } from './country-table.ts';
export {
  METADATA_STORE_FORMAT,
  METADATA_STORE_FORMAT_VERSION,
  READABLE_METADATA_STORE_FORMAT_VERSIONS,
} from './schema.ts';
export type { ArticleMetadata, FilterableField, MetadataStore } from './types.ts';
