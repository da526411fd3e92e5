import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { DUMP_FORMAT, DUMP_VERSION, TABLES, type DumpHeader } from './dump-format.ts';
import { attachmentFiles, readDumpFile } from './dump-files.ts';
import { openSnapshot } from './snapshot.ts';

export interface ExportReport {
  readonly rows: number;
  readonly files: number;
  readonly missingFiles: readonly string[];
}

/**
 * Writes every row of the store at `url` to `out` as a dump (dump-format.ts), from one consistent snapshot; the
 * service may keep running and writing meanwhile. With `uploadsDir`, the media library's image files follow the
 * rows (a file missing from the folder is reported, not fatal). Honours back-pressure, so memory stays flat.
 * @example await exportDump('sqlite:./data/events.sqlite', process.stdout, Date.now(), './data/uploads')
 */
export async function exportDump(url: string, out: Writable, now: number, uploadsDir?: string): Promise<ExportReport> {
  const snap = await openSnapshot(url);
  const write = async (value: unknown) => {
    if (!out.write(`${JSON.stringify(value)}\n`)) await once(out, 'drain');
  };
  try {
    const header: DumpHeader = {
      format: DUMP_FORMAT,
      version: DUMP_VERSION,
      schema: await snap.schema(),
      source: snap.kind,
      exported_gmt: new Date(now).toISOString().slice(0, 19).replace('T', ' '),
      sequences: await snap.sequences(),
    };
    await write(header);
    let rows = 0;
    const files: string[] = [];
    for (const table of TABLES) {
      for await (const row of snap.rows(table)) {
        await write({ table, row });
        if (table === 'attachments') files.push(...attachmentFiles(row));
        rows++;
      }
    }
    // Uploaded files never change once written (new uploads get new names), so reading them after the rows is safe.
    const missingFiles: string[] = [];
    let written = 0;
    for (const file of uploadsDir === undefined ? [] : files) {
      const line = await readDumpFile(uploadsDir!, file);
      if (line === undefined) {
        missingFiles.push(file);
        continue;
      }
      await write(line);
      written++;
    }
    await write({ end: true, rows, files: written });
    return { rows, files: written, missingFiles };
  } finally {
    await snap.close();
  }
}
