// Imports iCalendar text into a test service's database through a second connection, as `events import ics` does
// from another process: the service's caches learn of the commit through the store's change signal.
import { parseConfig } from '../../src/config/index.ts';
import { openStore, type Store } from '../../src/db/index.ts';
import { createSite } from '../../src/post/index.ts';
import { toCaller, userService } from '../../src/user/index.ts';
import { defaultIcsImportOptions, importIcs, type IcsImportOptions } from '../../src/import/index.ts';
import { commitsSeen, type Service } from './harness.ts';

export interface Importer {
  run(ics: string | Uint8Array, opts?: Partial<IcsImportOptions>, source?: string): ReturnType<typeof importIcs>;
  readonly store: Store;
  close(): Promise<void>;
}

/** An importer writing as the administrator into `svc`'s database, at `svc`'s clock, in `timezone` (the site's). */
export async function icsImporter(svc: Service, timezone = 'UTC'): Promise<Importer> {
  const store = await openStore(svc.dbUrl);
  const config = parseConfig({ port: 0, db: svc.dbUrl, siteUrl: 'http://wordpress.test', timezone }, {});
  const site = createSite(config);
  return {
    store,
    async run(ics, opts = {}, source = 'test:feed') {
      const admin = (await userService(store.db).firstAdministrator())!;
      const bytes = typeof ics === 'string' ? Buffer.from(ics) : ics;
      const result = await importIcs(
        { db: store.db, site, config, caller: toCaller(admin), now: svc.clock.now },
        bytes,
        source,
        { ...defaultIcsImportOptions, ...opts },
      );
      await commitsSeen(svc, store);
      return result;
    },
    close: () => store.close(),
  };
}

/** A VCALENDAR around `body` lines, CRLF-joined as RFC 5545 wants. */
export const calendar = (...body: string[]): string =>
  ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//ical import//EN', ...body, 'END:VCALENDAR', ''].join('\r\n');

/** A VEVENT with `props` (`NAME:value` lines). */
export const vevent = (...props: string[]): string[] => ['BEGIN:VEVENT', ...props, 'END:VEVENT'];
