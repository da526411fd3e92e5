/**
 * The setup the import benches share (CSV, iCalendar): a fresh store of one kind with an administrator, and the
 * import dependencies acting as that administrator, as the CLI builds them.
 */
import { loadavg } from 'node:os';
import { parseConfig } from '../src/config/index.ts';
import { openStore } from '../src/db/index.ts';
import { createSite } from '../src/post/index.ts';
import { toCaller, userService } from '../src/user/index.ts';
import type { CsvImportDeps } from '../src/import/index.ts';
import { benchStore } from './bench-store.ts';

export const benchStores = (): Array<'sqlite' | 'postgres'> =>
  (process.env.EVENTS_BENCH_STORES ?? 'sqlite,postgres').split(',') as Array<'sqlite' | 'postgres'>;

export const loadLine = (): string =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** Runs `body` with import deps on a fresh store of `kind` (database `name` on PostgreSQL), then drops the store. */
export async function withImportStore<T>(
  kind: 'sqlite' | 'postgres',
  name: string,
  now: number,
  body: (deps: CsvImportDeps) => Promise<T>,
): Promise<T> {
  const db = await benchStore(kind, name);
  const store = await openStore(db.url);
  try {
    const config = parseConfig({ db: db.url, siteUrl: 'http://bench.test' }, {});
    const admin = await userService(store.db).add('bench', 'administrator', { appPassword: 'bench-password-0001' });
    const caller = toCaller((await userService(store.db).findById(admin.id))!);
    return await body({ db: store.db, site: createSite(config), config, caller, now });
  } finally {
    await store.close();
    await db.dispose();
  }
}
