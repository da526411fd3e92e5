import { sql, type Kysely } from 'kysely';
import { isPostgres, type Database, type Store } from '../db/index.ts';
import { DumpError } from './dump-error.ts';
import {
  DUMP_FORMAT,
  ID_TABLES,
  isDumpTable,
  TABLES,
  TABLES_OF_VERSION,
  type DumpHeader,
  type DumpTable,
} from './dump-format.ts';
import { removeWritten, writeDumpFile } from './dump-files.ts';

/** Rows per INSERT: well under both stores' bound-parameter limits for the widest table (posts, 15 columns). */
const BATCH_ROWS = 500;

export interface RestoreReport {
  readonly rows: number;
  readonly files: number;
  readonly source: string;
  readonly tables: Readonly<Record<string, number>>;
}

const schemaOf = async (db: Kysely<Database>): Promise<string> =>
  (await sql<{ name: string }>`select max(name) as name from kysely_migration`.execute(db)).rows[0]!.name;

function parseLine(text: string, n: number): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new DumpError('malformed', `line ${n} is not JSON`);
  }
}

function checkHeader(value: unknown, schema: string): DumpHeader {
  const h = value as Partial<DumpHeader> | null;
  if (h === null || typeof h !== 'object' || h.format !== DUMP_FORMAT)
    throw new DumpError('not_a_dump', `not an events dump (line 1 must be its header, made by \`events export\`)`);
  if (typeof h.version !== 'number' || TABLES_OF_VERSION[h.version] === undefined)
    throw new DumpError(
      'version',
      `dump format version ${String(h.version)}; this service reads versions ${Object.keys(TABLES_OF_VERSION).join(', ')}`,
    );
  if (h.schema !== schema)
    throw new DumpError(
      'schema',
      `the dump is of schema ${String(h.schema)}, this store is at ${schema}: export and restore with the same version of the service`,
    );
  return h as DumpHeader;
}

/** Refuses a store holding anything: a restore keeps every id, so it cannot merge into existing rows. */
async function checkEmpty(db: Kysely<Database>): Promise<void> {
  for (const table of TABLES) {
    const { rows } = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)}`.execute(db);
    const n = Number(rows[0]?.n ?? 0);
    if (n > 0)
      throw new DumpError(
        'not_empty',
        `the target store is not empty (${table} has ${n} rows): restore only into a new, empty store`,
      );
  }
}

/** Next ids continue after the source's: its counter, or the highest restored id if that is higher. */
async function setSequences(trx: Kysely<Database>, sequences: Readonly<Record<string, number>>): Promise<void> {
  for (const table of ID_TABLES) {
    const { rows } = await sql<{ m: number | null }>`select max(id) as m from ${sql.table(table)}`.execute(trx);
    const next = Math.max(Number(sequences[table] ?? 0), Number(rows[0]?.m ?? 0));
    if (next <= 0) continue;
    if (isPostgres(trx)) await sql`select setval(${`${table}_id_seq`}, ${next}, true)`.execute(trx);
    else {
      await sql`delete from sqlite_sequence where name = ${table}`.execute(trx);
      await sql`insert into sqlite_sequence (name, seq) values (${table}, ${next})`.execute(trx);
    }
  }
}

/**
 * Restores a dump into an empty store in one transaction: every row with its id, then the id counters. A file that
 * is not a dump, of another format or schema version, malformed or cut short (no trailer, or a row count that does
 * not match) leaves the store as it was.
 * @example await restoreDump(store, readline.createInterface({ input: createReadStream('dump.jsonl') }))
 */
export async function restoreDump(
  store: Store,
  lines: AsyncIterable<string>,
  uploadsDir?: string,
): Promise<RestoreReport> {
  const it = lines[Symbol.asyncIterator]();
  const first = await it.next();
  if (first.done === true) throw new DumpError('not_a_dump', 'the file is empty');
  const header = checkHeader(parseLine(first.value, 1), await schemaOf(store.db));
  const tables = TABLES_OF_VERSION[header.version]!;
  await checkEmpty(store.db);
  const written: string[] = [];
  return store.db
    .transaction()
    .execute(async (trx) => {
      const counts: Record<string, number> = {};
      let batch: Array<Record<string, unknown>> = [];
      let batchTable: DumpTable | undefined;
      let order = 0;
      const flush = async () => {
        if (batchTable === undefined || batch.length === 0) return;
        try {
          await trx
            .insertInto(batchTable)
            .values(batch as never)
            .execute();
        } catch (err) {
          // A row with an unknown column, a missing value or a broken reference: the file was edited or is not whole.
          throw new DumpError(
            'malformed',
            `${batchTable} rows before line ${n + 1} were refused by the store: ${err instanceof Error ? err.message : String(err)}`,
          );
        }
        batch = [];
      };
      let n = 1;
      let rows = 0;
      let files = 0;
      for (let next = await it.next(); next.done !== true; next = await it.next()) {
        n++;
        if (next.value.trim() === '') continue;
        const line = parseLine(next.value, n) as {
          table?: unknown;
          row?: unknown;
          end?: unknown;
          rows?: unknown;
          files?: unknown;
          file?: unknown;
          data?: unknown;
        };
        if (line.end === true) {
          await flush();
          if (line.rows !== rows)
            throw new DumpError('truncated', `the trailer counts ${String(line.rows)} rows, the file holds ${rows}`);
          if ((line.files ?? 0) !== files)
            throw new DumpError('truncated', `the trailer counts ${String(line.files)} files, the file holds ${files}`);
          if (!(await it.next()).done) throw new DumpError('malformed', `line ${n + 1}: data after the trailer`);
          await setSequences(trx, header.sequences);
          return { rows, files, source: header.source, tables: counts };
        }
        if (typeof line.file === 'string' && typeof line.data === 'string') {
          await flush();
          // Without an uploads folder (a test, a store whose images are copied by hand) the rows alone are restored.
          if (uploadsDir !== undefined)
            await writeDumpFile(uploadsDir, { file: line.file, data: line.data }, n, written);
          order = tables.length;
          files++;
          continue;
        }
        if (
          !isDumpTable(line.table) ||
          !tables.includes(line.table) ||
          line.row === null ||
          typeof line.row !== 'object' ||
          Array.isArray(line.row)
        ) {
          throw new DumpError(
            'malformed',
            `line ${n}: expected {"table": one of ${tables.join(', ')}, "row": {…}} (dump version ${header.version})`,
          );
        }
        // Parents before children: a table never comes back once the next one started.
        const at = tables.indexOf(line.table);
        if (at < order)
          throw new DumpError('malformed', `line ${n}: ${line.table} rows after ${tables[order] ?? 'the image files'}`);
        if (line.table !== batchTable || batch.length >= BATCH_ROWS) await flush();
        order = at;
        batchTable = line.table;
        batch.push(line.row as Record<string, unknown>);
        counts[line.table] = (counts[line.table] ?? 0) + 1;
        rows++;
      }
      throw new DumpError('truncated', `the file ends at line ${n} without its trailer: it was cut short`);
    })
    .catch(async (err: unknown) => {
      await removeWritten(written);
      throw err;
    });
}
