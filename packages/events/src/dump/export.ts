import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { DUMP_FORMAT, DUMP_VERSION, TABLES, type DumpHeader } from './dump-format.ts';
import { openSnapshot } from './snapshot.ts';

/**
 * Writes every row of the store at `url` to `out` as a dump (dump-format.ts), from one consistent snapshot; the
 * service may keep running and writing meanwhile. Honours back-pressure, so memory stays flat on any size.
 * @example await exportDump('sqlite:./data/events.sqlite', process.stdout, Date.now())
 */
export async function exportDump(url: string, out: Writable, now: number): Promise<{ rows: number }> {
  const snap = await openSnapshot(url);
  const write = async (value: unknown) => {
    if (!out.write(`${JSON.stringify(value)}\n`)) await once(out, 'drain');
  };
  try {
    const header: DumpHeader = {
      format: DUMP_FORMAT, version: DUMP_VERSION, schema: await snap.schema(), source: snap.kind,
      exported_gmt: new Date(now).toISOString().slice(0, 19).replace('T', ' '), sequences: await snap.sequences(),
    };
    await write(header);
    let rows = 0;
    for (const table of TABLES) {
      for await (const row of snap.rows(table)) {
        await write({ table, row });
        rows++;
      }
    }
    await write({ end: true, rows });
    return { rows };
  } finally {
    await snap.close();
  }
}
