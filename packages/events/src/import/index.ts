// Data in and out of a store: CSV import (csv/), iCalendar import (ics/), import from a site running the plugin (tec/)
// and subscriptions (subscription/). Built on the domain services, never on HTTP internals beyond the
// route definitions: the same rules as the REST writes, reached through `composeServices`.
export {
  importCsv,
  defaultCsvImportOptions,
  type CsvImportDeps,
  type CsvImportOptions,
  type CsvImportReport,
} from './csv/csv-import.ts';
export { CsvImportError, type RowProblem } from './csv/import-error.ts';
export { CSV_IMPORT_TYPES, type CsvImportType } from './csv/columns.ts';
export { DEFAULT_CSV_LIMITS } from './csv/csv-file.ts';
export { csvImportRoutes, csvErrorAnswer } from './csv/import.routes.ts';
export {
  importIcs,
  defaultIcsImportOptions,
  IcsImportError,
  DEFAULT_ICS_LIMITS,
  readFeedSource,
  isFeedUrl,
  feedUrl,
  type IcsImportReport,
  type IcsImportOptions,
} from './ics/index.ts';
export {
  readTecSite,
  tecApiRoot,
  defaultTecSourceOptions,
  importTec,
  TEC_KINDS,
  TecImportError,
  type TecSite,
  type TecSourceOptions,
  type TecImportOptions,
  type TecImportReport,
  type TecSkipped,
  type TecUnlinked,
} from './tec/index.ts';
export {
  subscriptionRepository,
  startSubscriptionRunner,
  parseEvery,
  formatEvery,
  runSummary,
  type Subscription,
} from './subscription/index.ts';

/** Our own REST namespace, beside the plugin's: operations the plugin has no API for. */
export const SERVICE_NAMESPACE = 'events-service/v1';
