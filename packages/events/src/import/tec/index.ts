// Import from a site running the plugin: its tribe/events/v1 lists read page by page (tec-source), checked into named
// types (tec-items), then written through the services the REST writes use (tec-import); the site's users become
// local users (tec-users) and each item's author is mapped to them.
export { readTecSite, tecApiRoot, defaultTecSourceOptions, type TecSite, type TecSourceOptions } from './tec-source.ts';
export {
  importTec,
  type TecImportOptions,
  type TecImportReport,
  type TecSkipped,
  type TecUnlinked,
} from './tec-import.ts';
export { TecImportError, TEC_KINDS, type TecErrorKind, type TecKind } from './tec-error.ts';
export type { TecUsersReport } from './tec-users.ts';
