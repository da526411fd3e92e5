export {
  validateArticleRecord,
  METADATA_STRING_FIELDS,
  type ArticleRecord,
  type MetadataStringField,
  type RecordResult,
} from './article-record.ts';
export { parseCrawlPeriod, MIN_CRAWL_YEAR, MAX_CRAWL_YEAR, type CrawlPeriod } from './crawl-period.ts';
export { CorpusError, type CorpusErrorCode } from './errors.ts';
export { discoverInputFiles, inputFormatOf, type InputFile, type InputFormat } from './input-files.ts';
export { readArticles, recordPosition, type ReadArticlesOptions, type ReadStats } from './read-articles.ts';
export { readRecords, type RawRecord } from './record-source.ts';
export { createTextHasher, type TextHasher } from './text-hash.ts';
export {
  syntheticArticles,
  writeSyntheticCorpus,
  defaultSyntheticCorpusOptions,
  type SyntheticArticle,
  type SyntheticCorpusOptions,
} from './synthetic.ts';
export {
  plantCopies,
  writeSyndicatedCorpus,
  defaultSyndicationOptions,
  type PlantedArticle,
  type SyndicationOptions,
} from './syndicated-copies.ts';
