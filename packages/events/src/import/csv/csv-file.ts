import { parse } from 'csv-parse/sync';
import { CsvImportError } from './import-error.ts';

/** Bounds checked before any work on the content: the file's bytes, its data rows, one field's characters. */
export interface CsvLimits {
  readonly maxBytes: number;
  readonly maxRows: number;
  readonly maxFieldChars: number;
}

export const DEFAULT_CSV_LIMITS: CsvLimits = Object.freeze({
  maxBytes: 20 * 1024 * 1024,
  maxRows: 50_000,
  maxFieldChars: 65_536,
});

/** A data row with the file line it starts on (a quoted field may span lines). */
export interface CsvRow {
  readonly line: number;
  readonly values: readonly string[];
}
export interface CsvFile {
  readonly header: readonly string[];
  readonly rows: readonly CsvRow[];
}

interface ParsedRecord {
  record: string[];
  info: { lines: number };
}

/**
 * Reads a spreadsheet export: UTF-8 (a byte-order mark is dropped), comma-separated, RFC 4180 quoting, the first row
 * the column names, every row as wide as the header. Limits are enforced while parsing, so a hostile file costs no
 * more than `limits` allows.
 * @example const { header, rows } = readCsv(await readFile('events.csv'))
 */
export function readCsv(bytes: Uint8Array, limits: CsvLimits = DEFAULT_CSV_LIMITS): CsvFile {
  if (bytes.byteLength > limits.maxBytes) {
    throw new CsvImportError(
      'too_large',
      `the file has ${bytes.byteLength} bytes; at most ${limits.maxBytes} are accepted`,
    );
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new CsvImportError(
      'malformed',
      `the file is not UTF-8 text (at byte ${firstBadUtf8(bytes)}): save it from the spreadsheet as "CSV UTF-8"`,
    );
  }
  let records: ParsedRecord[];
  try {
    records = parse(text, {
      bom: true,
      info: true,
      skip_empty_lines: true,
      relax_column_count: false,
      max_record_size: limits.maxFieldChars,
      // One record more than allowed (the header is one) tells "too many" without parsing the rest.
      to: limits.maxRows + 2,
    }) as unknown as ParsedRecord[];
  } catch (err) {
    const e = err as { code?: string; message?: string; lines?: number };
    if (e.code === 'CSV_MAX_RECORD_SIZE') {
      throw new CsvImportError(
        'too_large',
        `line ${e.lines ?? '?'}: a field is longer than ${limits.maxFieldChars} characters`,
      );
    }
    if (typeof e.code === 'string' && e.code.startsWith('CSV_'))
      throw new CsvImportError('malformed', `not a valid CSV file: ${e.message ?? e.code}`);
    throw err;
  }
  if (records.length === 0)
    throw new CsvImportError('header', 'the file is empty: the first row must name the columns');
  if (records.length > limits.maxRows + 1)
    throw new CsvImportError('too_large', `the file has more than ${limits.maxRows} rows`);
  const starts = recordStartLines(text);
  // csv-parse reports the line a record ends on (and counts CRLF inside quotes twice): the scan gives where it starts.
  const lineOf = (i: number) => starts[i] ?? records[i]!.info.lines;
  const [head, ...data] = records;
  records.forEach((r, i) => {
    if (r.record.some((v) => v.length > limits.maxFieldChars))
      throw new CsvImportError(
        'too_large',
        `line ${lineOf(i)}: a field is longer than ${limits.maxFieldChars} characters`,
      );
  });
  return {
    header: head!.record.map((h) => h.trim()),
    rows: data.map((r, i) => ({ line: lineOf(i + 1), values: r.record })),
  };
}

/**
 * The line each non-empty record starts on: line breaks are CRLF, LF or CR, and those inside a quoted cell (quotes
 * open only at a cell's start, as the parser requires) do not end the record. One pass over the text.
 */
export function recordStartLines(text: string): number[] {
  const starts: number[] = [];
  let line = 1;
  let quoted = false;
  let atRecordStart = true;
  for (let i = text.charCodeAt(0) === 0xfeff ? 1 : 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\r' && text[i + 1] === '\n') continue; // the CR of a CRLF: its LF counts
    if (c === '\n' || c === '\r') {
      line++;
      if (!quoted) atRecordStart = true;
      continue;
    }
    if (atRecordStart) {
      starts.push(line);
      atRecordStart = false;
    }
    if (c === '"') quoted = !quoted;
  }
  return starts;
}

function firstBadUtf8(bytes: Uint8Array): number {
  // Decoding prefixes would be quadratic; the standard decoder replaces bad sequences with U+FFFD, so find the first.
  const replaced = new TextDecoder('utf-8').decode(bytes);
  const at = replaced.indexOf('\uFFFD');
  return at < 0 ? 0 : Buffer.byteLength(replaced.slice(0, at));
}
