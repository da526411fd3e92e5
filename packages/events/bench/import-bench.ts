/**
 * `npm run bench:events:import`: CSV import throughput (issue 30, target ≥ 2,000 events/s on SQLite). Builds a file
 * in the plugin's columns (EVENTS_BENCH_ROWS rows, default 10,000; 40 venues, 25 organizers, 12 categories reused by
 * name), imports it into a fresh store in-process through `importCsv` (the CLI's and the route's path), and prints
 * rows/s for the whole call: parse, per-row REST validation, key checks, writes and commit. Then imports the same
 * file again (every row found by its key). EVENTS_BENCH_STORES=sqlite,postgres picks the stores.
 */
import { defaultCsvImportOptions, importCsv } from '../src/import/index.ts';
import { benchStores, loadLine, withImportStore } from './import-setup.ts';
import { benchCsv } from './bench-csv.ts';

const ROWS = Number(process.env.EVENTS_BENCH_ROWS ?? 10_000);
const STORES = benchStores();

const file = benchCsv(ROWS);
console.log(`CSV import, ${ROWS} rows (${(file.length / 1e6).toFixed(1)} MB); load average before ${loadLine()}`);
console.log('| store | first import (rows/s) | created | re-import (rows/s) | existing |');
console.log('|---|---|---|---|---|');
for (const kind of STORES) {
  await withImportStore(kind, 'events_import', Date.now(), async (deps) => {
    const opts = { ...defaultCsvImportOptions, type: 'events' as const };
    let t = performance.now();
    const first = await importCsv(deps, file, opts);
    const firstRate = ROWS / ((performance.now() - t) / 1000);
    t = performance.now();
    const again = await importCsv(deps, file, opts);
    const againRate = ROWS / ((performance.now() - t) / 1000);
    console.log(
      `| ${kind} | ${firstRate.toFixed(0)} | ${first.created} | ${againRate.toFixed(0)} | ${again.existing} |`,
    );
  });
}
console.log(`load average after ${loadLine()}`);
