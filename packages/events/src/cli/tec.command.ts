import type { Command } from 'commander';
import { parseConfig } from '../config/index.ts';
import type { Store } from '../db/index.ts';
import { createSite } from '../post/index.ts';
import { systemClock } from '../time/index.ts';
import { UserError } from '../user/index.ts';
import { defaultTecSourceOptions, importTec, readTecSite, TEC_KINDS, TecImportError } from '../import/index.ts';
import { operator } from './csv.command.ts';

type WithStore = <T>(db: string | undefined, fn: (store: Store) => Promise<T>) => Promise<T>;

/** `events import tec URL`: everything a site running the plugin lets its credentials read (README, "Import from a site running the plugin"). */
export function tecImportCommand(imports: Command, withStore: WithStore): void {
  imports
    .command('tec <url>')
    .description(
      'import the events, venues, organizers, categories and tags of a site running the plugin (or this service); all or none unless --skip-bad',
    )
    .option('--auth <user:app-password>', 'Basic auth for the source: drafts, pending and private events are read too')
    .option('--db <url>', 'database URL (default EVENTS_DB or sqlite:./data/events.sqlite)')
    .option('--dry-run', 'read and check everything and report what would change; write nothing')
    .option('--author <login>', 'the user who writes (default: the first administrator)')
    .option('--skip-bad', 'import the good venues, organizers and events and list the bad ones instead of refusing all')
    .action(
      async (
        url: string,
        opts: { auth?: string; db?: string; dryRun?: boolean; author?: string; skipBad?: boolean },
      ) => {
        if (opts.auth !== undefined && !/^[^:]+:./.test(opts.auth))
          throw new UserError('--auth takes USER:APP-PASSWORD');
        const config = parseConfig({ db: opts.db }, process.env);
        await withStore(config.db, async (store) => {
          const caller = await operator(store, opts.author);
          try {
            const site = await readTecSite(url, {
              ...defaultTecSourceOptions,
              auth: opts.auth,
              allowPrivateHosts: config.mediaAllowPrivateHosts,
              onPage: (list, page, pages) => console.error(`read ${list} page ${page} of ${pages}`),
            });
            const r = await importTec(
              { db: store.db, site: createSite(config), config, caller, now: systemClock() },
              site,
              { dryRun: opts.dryRun === true, skipBad: opts.skipBad === true },
            );
            console.log(
              `${r.dryRun ? 'dry run: would import' : 'imported'} from ${r.source} (${r.keptIds ? 'ids kept: the store was empty' : `ids mapped: ${r.remapped} items got new ids`})`,
            );
            for (const kind of TEC_KINDS) {
              const c = r.counts[kind];
              console.log(`${kind}: ${c.created} created, ${c.updated} updated, ${c.unchanged} unchanged`);
            }
            const u = r.users;
            console.log(
              u.context === 'none'
                ? `users: not read (${u.reason}); every item is written by the importing user`
                : `users (${u.context} context): ${u.created} created without an application password, ${u.matched} matched; ${u.unmapped} items keep the importing user as author`,
            );
            if (r.deletedHere > 0)
              console.log(`${r.deletedHere} items imported earlier were deleted here: imported again as new`);
            console.log(`featured images: ${r.images.imported} set, ${r.images.failed.length} failed`);
            for (const f of r.images.failed) console.log(`${f.item}: image ${f.url}: ${f.reason}`);
            if (r.skipped.length > 0) console.log(`skipped (refused by the write rules): ${r.skipped.length}`);
            for (const x of r.skipped) console.log(`${x.kind} ${x.id} (${x.slug}) skipped: ${x.reason}`);
            for (const u of r.unlinked) console.log(`${u.event}: ${u.reason}`);
          } catch (err) {
            if (err instanceof TecImportError)
              throw new UserError(
                `${err.message} (nothing imported${err.kind === 'bad_items' && opts.skipBad !== true ? '; --skip-bad imports the others' : ''})`,
              );
            throw err;
          }
        });
      },
    );
}
