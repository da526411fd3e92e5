import { readFile, stat } from 'node:fs/promises';
import type { Command } from 'commander';
import { parseConfig } from '../config/index.ts';
import type { Store } from '../db/index.ts';
import { createSite } from '../post/index.ts';
import { systemClock } from '../time/index.ts';
import type { Caller } from '../http/route.ts';
import { toCaller, userService, UserError } from '../user/index.ts';
import {
  CSV_IMPORT_TYPES,
  CsvImportError,
  DEFAULT_CSV_LIMITS,
  defaultCsvImportOptions,
  importCsv,
  type CsvImportType,
} from '../import/index.ts';

type WithStore = <T>(db: string | undefined, fn: (store: Store) => Promise<T>) => Promise<T>;

const collectMap = (v: string, acc: Record<string, string>) => {
  const at = v.indexOf('=');
  if (at <= 0 || at === v.length - 1)
    throw new UserError(`--map takes COLUMN=FIELD (e.g. "Title=Event Name"), got ${v}`);
  return { ...acc, [v.slice(0, at)]: v.slice(at + 1) };
};

/** The writing user of an operator's import: `--author`, else the first administrator (as WordPress's importer runs as one). */
export async function operator(store: Store, login: string | undefined): Promise<Caller> {
  const users = userService(store.db);
  const row =
    login === undefined ? await users.firstAdministrator() : (await users.list()).find((u) => u.login === login);
  if (row === undefined)
    throw new UserError(
      login === undefined
        ? 'no administrator exists: create one first (events user add LOGIN --role administrator)'
        : `no user ${login}`,
    );
  return toCaller(row);
}

/** `events import csv FILE --type …`: the plugin's CSV importer (README, "CSV import"). */
export function csvImportCommand(imports: Command, withStore: WithStore): void {
  imports
    .command('csv <file>')
    .description("import events, venues or organizers from a CSV file (the plugin's columns); all rows or none")
    .requiredOption('--type <type>', `what the rows are: ${CSV_IMPORT_TYPES.join(', ')}`)
    .option('--db <url>', 'database URL (default EVENTS_DB or sqlite:./data/events.sqlite)')
    .option('--dry-run', 'check every row and report; write nothing')
    .option('--skip-bad', 'import the good rows and list the bad ones instead of refusing the file')
    .option(
      '--map <column=field>',
      'read a file column as a plugin column (repeatable): --map "Title=Event Name"',
      collectMap,
      {},
    )
    .option('--author <login>', 'the user who writes (default: the first administrator)')
    .action(
      async (
        file: string,
        opts: {
          type: string;
          db?: string;
          dryRun?: boolean;
          skipBad?: boolean;
          map: Record<string, string>;
          author?: string;
        },
      ) => {
        if (!CSV_IMPORT_TYPES.includes(opts.type as CsvImportType))
          throw new UserError(`--type must be one of ${CSV_IMPORT_TYPES.join(', ')}`);
        // The size is checked before the file is read: a huge file costs nothing.
        const size = await stat(file).then(
          (s) => s.size,
          () => {
            throw new UserError(`cannot read ${file}`);
          },
        );
        if (size > DEFAULT_CSV_LIMITS.maxBytes)
          throw new UserError(`${file} has ${size} bytes; at most ${DEFAULT_CSV_LIMITS.maxBytes} are accepted`);
        const config = parseConfig({ db: opts.db }, process.env);
        await withStore(config.db, async (store) => {
          const caller = await operator(store, opts.author);
          const options = {
            ...defaultCsvImportOptions,
            type: opts.type as CsvImportType,
            dryRun: opts.dryRun === true,
            skipBad: opts.skipBad === true,
            map: opts.map,
          };
          try {
            const r = await importCsv(
              { db: store.db, site: createSite(config), config, caller, now: systemClock() },
              await readFile(file),
              options,
            );
            console.log(
              `${r.dryRun ? 'dry run: would import' : 'imported'} ${r.created} of ${r.rows} ${r.type} rows; ${r.existing} already present, ${r.refused.length} refused`,
            );
            for (const p of r.refused) console.log(`line ${p.line}: ${p.reason}`);
            if (r.ignoredColumns.length > 0) console.log(`ignored columns: ${r.ignoredColumns.join(', ')}`);
          } catch (err) {
            if (!(err instanceof CsvImportError)) throw err;
            for (const p of err.problems) console.error(`line ${p.line}: ${p.reason}`);
            throw new UserError(
              err.problems.length > 0
                ? `${err.problems.length} row(s) refused; nothing imported (--skip-bad imports the others)`
                : err.message,
            );
          }
        });
      },
    );
}
