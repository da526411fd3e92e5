// Imports a site running the plugin into a test service's database through a second connection, as
// `events import tec URL` does from another process.
import { parseConfig } from '../../src/config/index.ts';
import { openStore, type Store } from '../../src/db/index.ts';
import { createSite } from '../../src/post/index.ts';
import { toCaller, userService } from '../../src/user/index.ts';
import { defaultTecSourceOptions, importTec, readTecSite, type TecSourceOptions } from '../../src/import/index.ts';
import { beforeAll, afterAll } from 'vitest';
import { commitsSeen, startService, type Service, type StoreFactory } from './harness.ts';

export interface TecImporter {
  run(
    url: string,
    opts?: Partial<TecSourceOptions> & { dryRun?: boolean; skipBad?: boolean },
  ): ReturnType<typeof importTec>;
  readonly store: Store;
  close(): Promise<void>;
}

/** An importer writing as the administrator into `svc`'s database; loopback sources are allowed (tests only). */
export async function tecImporter(svc: Service): Promise<TecImporter> {
  const store = await openStore(svc.dbUrl);
  // Images are downloaded from loopback servers into the service's own uploads folder.
  const config = parseConfig(
    { port: 0, db: svc.dbUrl, siteUrl: 'http://wordpress.test', timezone: 'UTC' },
    { EVENTS_MEDIA_ALLOW_PRIVATE_HOSTS: '1', EVENTS_UPLOADS_DIR: svc.uploadsDir },
  );
  const site = createSite(config);
  return {
    store,
    async run(url, opts = {}) {
      const admin = (await userService(store.db).firstAdministrator())!;
      const read = await readTecSite(url, { ...defaultTecSourceOptions, allowPrivateHosts: true, ...opts });
      const result = await importTec(
        { db: store.db, site, config, caller: toCaller(admin), now: svc.clock.now },
        read,
        {
          dryRun: opts.dryRun === true,
          skipBad: opts.skipBad === true,
        },
      );
      await commitsSeen(svc, store);
      return result;
    },
    close: () => store.close(),
  };
}

/** A target service on `factory`'s store with its importer, started before the suite's tests and closed after. */
export function tecTarget(factory: StoreFactory): { target: Service; importer: TecImporter } {
  const t = {} as { target: Service; importer: TecImporter };
  beforeAll(async () => {
    t.target = await startService(factory);
    t.importer = await tecImporter(t.target);
  });
  afterAll(async () => {
    await t.importer.close();
    await t.target.close();
  });
  return t;
}
