// Export and restore across stores (issue 30 item 4): a versioned JSON Lines dump of every table, read from one
// consistent snapshot and restored into an empty store of either kind.
export { exportDump } from './export.ts';
export { restoreDump, type RestoreReport } from './restore.ts';
export { DumpError } from './dump-error.ts';
export { DUMP_FORMAT, DUMP_VERSION } from './dump-format.ts';
