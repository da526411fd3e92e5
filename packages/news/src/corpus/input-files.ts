import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { CorpusError } from './errors.ts';

export type InputFormat = 'jsonl' | 'jsonl.gz' | 'parquet';

export interface InputFile {
  readonly path: string;
  readonly format: InputFormat;
  readonly bytes: number;
}

/** The format a file name announces, or undefined for files the builder does not read. */
export function inputFormatOf(name: string): InputFormat | undefined {
  if (name.endsWith('.jsonl.gz')) return 'jsonl.gz';
  if (name.endsWith('.jsonl')) return 'jsonl';
  if (name.endsWith('.parquet')) return 'parquet';
  return undefined;
}

/**
 * Expands input paths into the files to read, in input order: files as given, folders recursively with their
 * entries sorted by name (so the order, and with it every doc_ix, does not depend on the file system).
 */
export async function discoverInputFiles(paths: readonly string[]): Promise<InputFile[]> {
  const out: InputFile[] = [];
  const seen = new Set<string>();
  for (const p of paths) {
    const abs = resolve(p);
    const st = await stat(abs).catch(() => undefined);
    if (!st)
      throw new CorpusError(
        'input_not_found',
        `input ${p} does not exist; pass existing .jsonl, .jsonl.gz or .parquet files or folders`,
      );
    if (st.isDirectory()) {
      await walk(abs, out, seen);
    } else {
      const format = inputFormatOf(abs);
      if (!format)
        throw new CorpusError(
          'input_unsupported',
          `input ${p} is not .jsonl, .jsonl.gz or .parquet; convert it or pass its folder`,
        );
      add(out, seen, { path: abs, format, bytes: st.size });
    }
  }
  if (out.length === 0)
    throw new CorpusError('input_empty', `no .jsonl, .jsonl.gz or .parquet files under ${paths.join(', ')}`);
  return out;
}

async function walk(dir: string, out: InputFile[], seen: Set<string>): Promise<void> {
  const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
  );
  for (const e of entries) {
    const full = join(dir, e.name);
    if (e.isDirectory()) await walk(full, out, seen);
    else if (e.isFile()) {
      const format = inputFormatOf(e.name);
      if (format) add(out, seen, { path: full, format, bytes: (await stat(full)).size });
    }
  }
}

function add(out: InputFile[], seen: Set<string>, f: InputFile): void {
  // A file named twice (directly and through its folder) is read once: doubling articles would be silent damage.
  if (seen.has(f.path)) return;
  seen.add(f.path);
  out.push(f);
}
