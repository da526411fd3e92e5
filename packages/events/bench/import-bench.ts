/**
 * `npm run bench:events:import`: CSV import throughput (issue 30, target ≥ 2,000 events/s on SQLite). Builds a file
 * in the plugin's columns (EVENTS_BENCH_ROWS rows, default 10,000; 40 venues, 25 organizers, 12 categories reused by
 * name), imports it into a fresh store in-process through `importCsv` (the CLI's and the route's path), and prints
 * rows/s for the whole call: parse, per-row REST validation, key checks, writes and commit. Then imports the same
 * file again (every row found by its key). EVENTS_BENCH_STORES=sqlite,postgres picks the stores.
 */
import { loadavg } from 'node:os';
import { parseConfig } from '../src/config/index.ts';
import { openStore } from '../src/db/index.ts';
import { createSite } from '../src/post/index.ts';
import { toCaller, userService } from '../src/user/index.ts';
import { defaultCsvImportOptions, importCsv } from '../src/import/index.ts';
import { benchStore } from './bench-store.ts';
import { benchCsv } from './bench-csv.ts';

const ROWS = Number(process.env.EVENTS_BENCH_ROWS ?? 10_000);
const STORES = (process.env.EVENTS_BENCH_STORES ?? 'sqlite,postgres').split(',');

const file = benchCsv(ROWS);
console.log(
  `CSV import, ${ROWS} rows (${(file.length / 1e6).toFixed(1)} MB); load average before ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
console.log('| store | first import (rows/s) | created | re-import (rows/s) | existing |');
console.log('|---|---|---|---|---|');
for (const kind of STORES) {
  const db = await benchStore(kind as 'sqlite' | 'postgres', 'events_import');
  const store = await openStore(db.url);
  try {
    const config = parseConfig({ db: db.url, siteUrl: 'http://bench.test' }, {});
    const admin = await userService(store.db).add('bench', 'administrator', { appPassword: 'bench-password-0001' });
    const caller = toCaller((await userService(store.db).findById(admin.id))!);
    const deps = { db: store.db, site: createSite(config), config, caller, now: Date.now() };
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
  } finally {
    await store.close();
    await db.dispose();
  }
}
console.log(
  `load average after ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
