/**
 * `npm run bench:events:dump`: export and restore times (issue 30 item 4). Fills a SQLite store with
 * EVENTS_BENCH_ROWS events (default 10,000) through the CSV import, exports it, restores the dump into PostgreSQL,
 * exports that and restores it into SQLite again; prints each step's time, the rows and the dump's size.
 */
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { finished } from 'node:stream/promises';
import { parseConfig } from '../src/config/index.ts';
import { openStore } from '../src/db/index.ts';
import { createSite } from '../src/post/index.ts';
import { toCaller, userService } from '../src/user/index.ts';
import { defaultCsvImportOptions, importCsv } from '../src/import/index.ts';
import { exportDump, restoreDump } from '../src/dump/index.ts';
import { benchStore } from './bench-store.ts';
import { benchCsv } from './bench-csv.ts';

const ROWS = Number(process.env.EVENTS_BENCH_ROWS ?? 10_000);
const dir = mkdtempSync(join(tmpdir(), 'events-dump-bench-'));
const stores = [
  await benchStore('sqlite', 'events_dump_src'),
  await benchStore('postgres', 'events_dump_pg'),
  await benchStore('sqlite', 'events_dump_back'),
];
const timed = async <T>(label: string, fn: () => Promise<T>): Promise<T> => {
  const t = performance.now();
  const out = await fn();
  console.log(`| ${label} | ${(performance.now() - t).toFixed(0)} ms |`);
  return out;
};
const exportTo = async (url: string, file: string) => {
  const out = createWriteStream(file);
  const r = await exportDump(url, out, Date.now());
  out.end();
  await finished(out);
  return r;
};
const restoreFrom = async (url: string, file: string) => {
  const store = await openStore(url);
  try {
    return await restoreDump(store, createInterface({ input: createReadStream(file), crlfDelay: Infinity }));
  } finally {
    await store.close();
  }
};
try {
  const [src, pgDb, back] = stores as [(typeof stores)[0], (typeof stores)[0], (typeof stores)[0]];
  const store = await openStore(src.url);
  const config = parseConfig({ db: src.url }, {});
  const users = userService(store.db);
  const admin = await users.add('bench', 'administrator', { appPassword: 'bench-password-0001' });
  await importCsv(
    {
      db: store.db,
      site: createSite(config),
      config,
      caller: toCaller((await users.findById(admin.id))!),
      now: Date.now(),
    },
    benchCsv(ROWS),
    { ...defaultCsvImportOptions, type: 'events' },
  );
  await store.close();
  console.log(
    `export and restore, ${ROWS} events; load average before ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  console.log('| step | time |');
  console.log('|---|---|');
  const first = join(dir, 'sqlite.jsonl');
  const { rows } = await timed('export SQLite', () => exportTo(src.url, first));
  await timed('restore into PostgreSQL', () => restoreFrom(pgDb.url, first));
  const second = join(dir, 'postgres.jsonl');
  await timed('export PostgreSQL', () => exportTo(pgDb.url, second));
  await timed('restore into SQLite', () => restoreFrom(back.url, second));
  console.log(
    `${rows} rows, dump ${(statSync(first).size / 1e6).toFixed(1)} MB; load average after ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
} finally {
  for (const s of stores) await s.dispose();
  rmSync(dir, { recursive: true, force: true });
}
