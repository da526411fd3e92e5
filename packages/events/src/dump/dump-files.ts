import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { DumpError } from './dump-error.ts';

/** An image file of the media library in a dump: its path under the uploads folder and its bytes in base64. */
export interface DumpFileLine {
  readonly file: string;
  readonly data: string;
}

/** The uploads layout (`YYYY/MM/name.ext`, media/upload-store.ts): anything else in a dump is refused, never written. */
const UPLOAD_PATH = /^\d{4}\/\d{2}\/[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** The files of one attachment row: the original and each generated size beside it. */
export function attachmentFiles(row: Record<string, unknown>): string[] {
  const file = String(row.file);
  let sizes: Record<string, { file?: unknown }> = {};
  try {
    sizes = JSON.parse(String(row.sizes ?? '{}')) as typeof sizes;
  } catch {
    /* a row without sizes has only its original */
  }
  const folder = dirname(file);
  return [file, ...Object.values(sizes).map((s) => `${folder}/${String(s.file)}`)];
}

/** The file's dump line, or undefined when the uploads folder lacks it (the export reports how many). */
export async function readDumpFile(uploadsDir: string, file: string): Promise<DumpFileLine | undefined> {
  const bytes = await readFile(join(uploadsDir, file)).catch(() => undefined);
  return bytes === undefined ? undefined : { file, data: bytes.toString('base64') };
}

/**
 * Writes one dumped file under `uploadsDir`, never outside it and never over an existing file; `written` collects
 * what was written, so a restore that fails can remove it again.
 */
export async function writeDumpFile(
  uploadsDir: string,
  line: DumpFileLine,
  n: number,
  written: string[],
): Promise<void> {
  const root = resolve(uploadsDir);
  const target = resolve(root, line.file);
  if (!UPLOAD_PATH.test(line.file) || !target.startsWith(root + sep))
    throw new DumpError('malformed', `line ${n}: ${JSON.stringify(line.file)} is not an uploads path (YYYY/MM/name)`);
  await mkdir(dirname(target), { recursive: true });
  await writeFile(target, Buffer.from(line.data, 'base64'), { flag: 'wx' }).catch((err: NodeJS.ErrnoException) => {
    throw new DumpError(
      err.code === 'EEXIST' ? 'not_empty' : 'malformed',
      `line ${n}: cannot write ${line.file} in the uploads folder: ${err.code === 'EEXIST' ? 'a file of that name exists' : err.message}`,
    );
  });
  written.push(target);
}

/** Removes the files a failed restore wrote. */
export const removeWritten = async (written: readonly string[]): Promise<void> => {
  for (const f of written) await rm(f, { force: true });
};
