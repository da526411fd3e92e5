import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } from 'hyparquet';
import { CorpusError } from './errors.ts';
import type { InputFile } from './input-files.ts';

/** One raw record before validation: its position for error messages, and the parsed value or why parsing failed. */
export type RawRecord =
  | { readonly file: string; readonly line: number; readonly ok: true; readonly value: unknown }
  | { readonly file: string; readonly line: number; readonly ok: false; readonly reason: string };

/** Progress of reading one file: bytes of the file consumed so far (compressed bytes for .gz). */
export type ReadProgress = (fileBytesRead: number) => void;

/** Streams the records of one input file. JSONL: `line` is the 1-based line number; Parquet: the 1-based row number. */
export async function* readRecords(file: InputFile, onBytes?: ReadProgress): AsyncGenerator<RawRecord> {
  let last = 0;
  try {
    for await (const r of file.format === 'parquet' ? readParquet(file) : readJsonl(file, onBytes)) {
      last = r.line;
      yield r;
    }
  } catch (e) {
    if (e instanceof CorpusError) throw e;
    // A truncated .gz or a broken Parquet footer surfaces as a stream or decoder error: name the file and place.
    const what = file.format === 'parquet' ? 'is not a readable Parquet file' : `cannot be read after line ${last}`;
    throw new CorpusError(
      'input_unreadable',
      `${file.path} ${what} (${(e as Error).message}); re-export or re-download the file`,
    );
  }
}

async function* readJsonl(file: InputFile, onBytes?: ReadProgress): AsyncGenerator<RawRecord> {
  const raw = createReadStream(file.path, { highWaterMark: 1 << 20 });
  if (onBytes) raw.on('data', () => onBytes(raw.bytesRead));
  const stream = file.format === 'jsonl.gz' ? raw.pipe(createGunzip()) : raw;
  raw.on('error', (e) => stream.destroy(e));
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  let line = 0;
  try {
    for await (const lineText of lines) {
      line++;
      // Some exporters start UTF-8 files with a byte-order mark; it is not part of the first record.
      const text = line === 1 && lineText.charCodeAt(0) === 0xfeff ? lineText.slice(1) : lineText;
      // Blank lines (a trailing newline, an editor's empty last line) are not records.
      if (text.trim() === '') continue;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (e) {
        yield { file: file.path, line, ok: false, reason: `invalid JSON (${(e as Error).message})` };
        continue;
      }
      yield { file: file.path, line, ok: true, value };
    }
  } finally {
    lines.close();
    raw.destroy();
  }
}

async function* readParquet(file: InputFile): AsyncGenerator<RawRecord> {
  const buffer = await asyncBufferFromFile(file.path);
  const metadata = await parquetMetadataAsync(buffer);
  // One row group at a time keeps memory at one row group, whatever the file size.
  let rowStart = 0;
  for (const group of metadata.row_groups) {
    const rowEnd = rowStart + Number(group.num_rows);
    const rows = await parquetReadObjects({ file: buffer, metadata, rowStart, rowEnd });
    for (let i = 0; i < rows.length; i++) {
      yield { file: file.path, line: rowStart + i + 1, ok: true, value: rows[i] };
    }
    rowStart = rowEnd;
  }
}
