/**
 * Exports of the page: CSV (UTF-8 BOM, formula-safe, identifiers kept as text) and JSON of the examined matches,
 * the loaded sample, the concordance and the counts per month, and the download script.
 */
export * from './csv.ts';
export * from './export-data.ts';
export * from './concordance-export.ts';
export * from './timeline-export.ts';
export * from './xlsx.ts';
export { buildDownloadScript, type DownloadScriptInput } from './download-script.ts';
