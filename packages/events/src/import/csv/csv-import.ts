import type { Kysely } from 'kysely';
import type { Config } from '../../config/index.ts';
import type { Database } from '../../db/index.ts';
import { checkArgs, type ArgSet } from '../../http/args.ts';
import { ApiError } from '../../http/errors.ts';
import type { Caller } from '../../http/route.ts';
import { eventWriteArgs } from '../../event/index.ts';
import { linkedWriteArgs, writeTransaction, WriteGeneration, type Site } from '../../post/index.ts';
import { composeServices, type Services } from '../../services.ts';
import { planColumns, rowFields, type CsvImportType } from './columns.ts';
import { DEFAULT_CSV_LIMITS, readCsv, type CsvLimits } from './csv-file.ts';
import { CsvImportError, type RowProblem } from './import-error.ts';
import { importRepository, keyText } from './import.repository.ts';
import { rowParams, RowRefused, type RowWrite } from './row-params.ts';
import { linkedMemo } from './linked-memo.ts';
import { writeItems } from '../item-writes.ts';

export interface CsvImportOptions {
  readonly type: CsvImportType;
  /** Validate every row and report, write nothing. */
  readonly dryRun: boolean;
  /** Import the good rows and report the bad ones, instead of refusing the whole file. */
  readonly skipBad: boolean;
  /** File column → plugin column label or field key, for files with other headers. */
  readonly map: Readonly<Record<string, string>>;
  readonly limits: CsvLimits;
}

export const defaultCsvImportOptions: Omit<CsvImportOptions, 'type'> = {
  dryRun: false,
  skipBad: false,
  map: {},
  limits: DEFAULT_CSV_LIMITS,
};

export interface CsvImportReport {
  readonly type: CsvImportType;
  readonly dryRun: boolean;
  /** Data rows in the file. */
  readonly rows: number;
  /** Rows written (or, in a dry run, that would be). */
  readonly created: number;
  /** Rows whose key matches a post already stored, or an earlier row of the file: left as they are. */
  readonly existing: number;
  /** Rows refused (only with `skipBad`; otherwise the file is refused with them). */
  readonly refused: readonly RowProblem[];
  /** File columns that fill no field. */
  readonly ignoredColumns: readonly string[];
}

export interface CsvImportDeps {
  readonly db: Kysely<Database>;
  readonly site: Site;
  readonly config: Config;
  /** Who writes: the REST route's administrator, or the CLI's operator. */
  readonly caller: Caller;
  readonly now: number;
}

interface ValidRow {
  readonly line: number;
  readonly params: Record<string, unknown>;
  readonly sent: ReadonlySet<string>;
}

/** The REST create argument set of a type: the same object the route validates with. */
function createArgs(type: CsvImportType, s: Services): ArgSet {
  if (type === 'events') return eventWriteArgs(s.eventArgDeps, true);
  const service = type === 'venues' ? s.venues : s.organizers;
  return linkedWriteArgs({ service, userExists: s.userExists, imageArg: s.imageArg }, true);
}

/** A REST refusal as one line: `start_date: Invalid parameter.` or the error's message. */
export function reasonOf(err: ApiError): string {
  const params = err.extra.params;
  if (err.code === 'rest_invalid_param' && params !== null && typeof params === 'object') {
    return Object.entries(params as Record<string, string>)
      .map(([k, m]) => `${k}: ${m}`)
      .join('; ');
  }
  return err.message;
}

/**
 * Imports a CSV file as the REST creates would, all or nothing: every row is checked with the create route's own
 * argument rules first, then the good rows are written in one transaction through the same services. A row whose
 * key (name and start for events, name for venues and organizers) is stored already is left alone, so importing a
 * file again adds nothing. Bad rows refuse the file (`CsvImportError` with every problem) unless `skipBad`.
 * @example await importCsv({ db, site, config, caller, now }, bytes, { ...defaultCsvImportOptions, type: 'events' })
 */
export async function importCsv(
  deps: CsvImportDeps,
  bytes: Uint8Array,
  opts: CsvImportOptions,
): Promise<CsvImportReport> {
  const file = readCsv(bytes, opts.limits);
  const plan = planColumns(opts.type, file.header, opts.map);
  const run = async (db: Kysely<Database>): Promise<CsvImportReport> => {
    const services = composeServices(db, deps.site, new WriteGeneration(), deps.config, { itemCacheBytes: 0 });
    const args = createArgs(opts.type, services);
    const repo = importRepository(db);
    const refused: RowProblem[] = [];
    const valid: ValidRow[] = [];
    const mapped: Array<{ line: number; write: RowWrite }> = [];
    for (const row of file.rows) {
      try {
        mapped.push({ line: row.line, write: rowParams(opts.type, rowFields(plan, row.values)) });
      } catch (err) {
        if (!(err instanceof RowRefused)) throw err;
        refused.push({ line: row.line, reason: err.message });
      }
    }
    // Keys stored already, read in bulk: a query per row would cost more than the row's write.
    const seen =
      opts.type === 'events'
        ? await repo.eventKeys(mapped.map((m) => m.write.key.start ?? ''))
        : await repo.linkedKeys(opts.type);
    let existing = 0;
    for (const { line, write } of mapped) {
      try {
        const checked = await checkArgs<Record<string, unknown>>(args, write.params, deps.caller);
        const key = keyText(write.key.name, write.key.start);
        if (seen.has(key)) {
          existing++;
          continue;
        }
        seen.add(key);
        valid.push({ line, params: checked, sent: new Set(Object.keys(write.params)) });
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        refused.push({ line, reason: reasonOf(err) });
      }
    }
    refused.sort((a, b) => a.line - b.line);
    if (refused.length > 0 && !opts.skipBad) throw badRows(refused);
    let created = valid.length;
    if (!opts.dryRun) created = await writeRows(db, services, opts, deps, valid, refused);
    return {
      type: opts.type,
      dryRun: opts.dryRun,
      rows: file.rows.length,
      created,
      existing,
      refused,
      ignoredColumns: plan.ignored,
    };
  };
  // A dry run only reads; an import reads and writes in one transaction, so its checks see what it writes.
  return opts.dryRun ? run(deps.db) : writeTransaction(deps.db, run);
}

const badRows = (problems: readonly RowProblem[]) =>
  new CsvImportError(
    'bad_rows',
    `${problems.length} row(s) refused, nothing imported (--skip-bad imports the others): ${problems
      .slice(0, 5)
      .map((p) => `line ${p.line}: ${p.reason}`)
      .join('; ')}`,
    problems,
  );

/**
 * Writes the checked rows inside the import's transaction. A write may still refuse a row (a date out of range is
 * found when the dates are computed): that refuses the file, or with `skipBad` undoes that row alone (a savepoint).
 */
async function writeRows(
  db: Kysely<Database>,
  s: Services,
  opts: CsvImportOptions,
  deps: CsvImportDeps,
  rows: readonly ValidRow[],
  refused: RowProblem[],
): Promise<number> {
  const memo = linkedMemo(s.events);
  const write = async (r: ValidRow): Promise<number> => {
    if (opts.type === 'events') {
      const { params, pending } = memo.apply(r.params);
      const id = await s.events.create(deps.caller, params, r.sent, deps.now);
      if (pending) await memo.learn(id, params);
      return id;
    }
    // The route's create de-duplicates by name and description, as the plugin does; the key check above already left
    // out names that exist, so this creates.
    return (opts.type === 'venues' ? s.venues : s.organizers).create(deps.caller, r.params, r.sent, deps.now);
  };
  const created = await writeItems(db, rows, write, {
    skipBad: opts.skipBad,
    reasonOf: (err) => (err instanceof ApiError ? reasonOf(err) : undefined),
    refuseAll: (r, reason) => badRows([{ line: r.line, reason }]),
    skipped: (r, reason) => refused.push({ line: r.line, reason }),
  });
  refused.sort((a, b) => a.line - b.line);
  return created;
}
