/**
 * `npm run bench:events:tec-import`: `events import tec` throughput. A source service (SQLite, on loopback) holds
 * EVENTS_BENCH_ROWS events (default 2,000; the CSV bench's file: 40 venues, 25 organizers, 12 categories); each target
 * store imports it in-process as the CLI does (`readTecSite` then `importTec`, ids kept into the empty store), then
 * imports it again (every item found by its link, tec_links, nothing written). Prints events/s for read + write
 * and the process CPU seconds of each import.
 * EVENTS_BENCH_STORES=sqlite,postgres picks the target stores.
 */
import { pino } from 'pino';
import { createEventsApp } from '../src/app.ts';
import { parseConfig } from '../src/config/index.ts';
import { openStore } from '../src/db/index.ts';
import { createSite } from '../src/post/index.ts';
import { toCaller, userService } from '../src/user/index.ts';
import {
  defaultCsvImportOptions,
  defaultTecSourceOptions,
  importCsv,
  importTec,
  readTecSite,
} from '../src/import/index.ts';
import { benchStore } from './bench-store.ts';
import { benchStores, loadLine, withImportStore } from './import-setup.ts';
import { benchCsv } from './bench-csv.ts';

const ROWS = Number(process.env.EVENTS_BENCH_ROWS ?? 2_000);
const NOW = Date.UTC(2024, 0, 1);
const PASSWORD = 'bench-password-0001';

const sourceDb = await benchStore('sqlite', 'tec_import_source');
const store = await openStore(sourceDb.url);
const config = parseConfig({ db: sourceDb.url, siteUrl: 'http://source.test' }, {});
const admin = await userService(store.db).add('bench', 'administrator', { appPassword: PASSWORD });
const caller = toCaller((await userService(store.db).findById(admin.id))!);
await importCsv({ db: store.db, site: createSite(config), config, caller, now: NOW }, benchCsv(ROWS), {
  ...defaultCsvImportOptions,
  type: 'events',
});
const app = createEventsApp({ config, store, clock: () => NOW, logger: pino({ level: 'silent' }) });
const source = await app.listen({ port: 0, host: '127.0.0.1' });

console.log(`import tec, ${ROWS} events from a SQLite source on loopback; load average before ${loadLine()}`);
console.log(
  '| target | first import (events/s) | CPU s | created | ids kept | re-import (events/s) | CPU s | unchanged |',
);
console.log('|---|---|---|---|---|---|---|---|');
/** Process CPU seconds (user + system) since `from`: the in-process source's serving included, the same for all. */
const cpuSince = (from: NodeJS.CpuUsage) => {
  const d = process.cpuUsage(from);
  return ((d.user + d.system) / 1e6).toFixed(2);
};
const options = { ...defaultTecSourceOptions, auth: `bench:${PASSWORD}`, allowPrivateHosts: true };
for (const kind of benchStores()) {
  await withImportStore(kind, 'tec_import_target', NOW, async (deps) => {
    let t = performance.now();
    let cpu = process.cpuUsage();
    const first = await importTec(deps, await readTecSite(source, options), { dryRun: false });
    const firstRate = ROWS / ((performance.now() - t) / 1000);
    const firstCpu = cpuSince(cpu);
    t = performance.now();
    cpu = process.cpuUsage();
    const again = await importTec(deps, await readTecSite(source, options), { dryRun: false });
    const againRate = ROWS / ((performance.now() - t) / 1000);
    console.log(
      `| ${kind} | ${firstRate.toFixed(0)} | ${firstCpu} | ${first.counts.events.created} | ${first.keptIds} | ${againRate.toFixed(0)} | ${cpuSince(cpu)} | ${again.counts.events.unchanged} |`,
    );
  });
}
console.log(`load average after ${loadLine()}`);
await app.close();
await store.close();
await sourceDb.dispose();
