import { createReadStream } from 'node:fs';
import { access } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { Command } from 'commander';
import { parseConfig } from '../config/index.ts';
import type { Store } from '../db/index.ts';
import { DumpError, exportDump, restoreDump } from '../dump/index.ts';
import { UserError } from '../user/index.ts';

type WithStore = <T>(db: string | undefined, fn: (store: Store) => Promise<T>) => Promise<T>;

/** `events export` and `events import dump FILE` (README, "Export and restore"). */
export function dumpCommands(program: Command, imports: Command, withStore: WithStore, defaultDb: string): void {
  program
    .command('export')
    .description(
      'write every row of the store, then its image files (EVENTS_UPLOADS_DIR), to stdout as a versioned JSON Lines dump (a consistent snapshot; the service may keep running)',
    )
    .option('--db <url>', 'database URL (default EVENTS_DB or sqlite:./data/events.sqlite)')
    .action(async (opts: { db?: string }) => {
      const config = parseConfig({ db: opts.db ?? process.env.EVENTS_DB ?? defaultDb }, process.env);
      // Opening the store first applies pending migrations, so the dump carries the current schema version.
      await withStore(config.db, async () => undefined);
      const r = await exportDump(config.db, process.stdout, Date.now(), config.uploadsDir);
      console.error(`exported ${r.rows} rows and ${r.files} image files`);
      if (r.missingFiles.length > 0)
        console.error(`not in ${config.uploadsDir} (left out): ${r.missingFiles.join(', ')}`);
    });

  imports
    .command('dump <file>')
    .description(
      'restore a dump made by `events export` into an empty store (SQLite or PostgreSQL, either way), its image files into EVENTS_UPLOADS_DIR',
    )
    .option('--db <url>', 'database URL (default EVENTS_DB or sqlite:./data/events.sqlite)')
    .action(async (file: string, opts: { db?: string }) => {
      await access(file).catch(() => {
        throw new UserError(`cannot read ${file}`);
      });
      const config = parseConfig({ db: opts.db ?? process.env.EVENTS_DB ?? defaultDb }, process.env);
      await withStore(config.db, async (store) => {
        const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
        try {
          const r = await restoreDump(store, lines, config.uploadsDir);
          console.log(
            `restored ${r.rows} rows and ${r.files} image files from a ${r.source} dump: ${Object.entries(r.tables)
              .map(([t, n]) => `${t} ${n}`)
              .join(', ')}`,
          );
        } catch (err) {
          if (err instanceof DumpError) throw new UserError(`${file}: ${err.message}`);
          throw err;
        } finally {
          lines.close();
        }
      });
    });
}
