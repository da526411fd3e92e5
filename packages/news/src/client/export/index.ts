/** Exports of the page: CSV (formula-safe) and JSON of the examined matches and the loaded sample, and the download script. */
export * from './csv.ts';
export * from './export-data.ts';
export { buildDownloadScript, type DownloadScriptInput } from './download-script.ts';
