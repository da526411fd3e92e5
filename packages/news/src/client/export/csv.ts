/** Characters that make a spreadsheet treat a cell as a formula (or split it) when they come first. */
const EXECUTABLE_START = /^[=+\-@\t\r]/;
/**
 * Digits a spreadsheet would read as a number and round: it keeps 15 significant digits, so a 20-digit
 * text_xxhash64 became 1.41967680456432E+019 in LibreOffice.
 */
const LONG_DIGITS = /^\d{16,}$/;
/** A crawl month (`2024-03`): LibreOffice and Excel would turn it into a date (1 March 2024) and show it differently. */
const CRAWL_MONTH = /^\d{4}-\d{2}$/;
/**
 * A date or timestamp (`2026-01-06`, `2026-01-06T17:48:23.417897`, `…+00:00`): LibreOffice turned the ones without a
 * zone into date cells (losing the microseconds) and left the others text, so one column held two types. All are
 * kept as text, as written.
 */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}[\d:.,+\-Z]*)?$/;

/** Makes Excel on Windows read the file as UTF-8 (umlauts, Japanese) when it is opened by double-click. */
export const UTF8_BOM = '\uFEFF';

/**
 * One CSV field: always quoted, inner quotes doubled. A cell a spreadsheet could execute, or a digit string it
 * would round or read as a date, gets a leading tab, which keeps the text readable and makes the cell plain text on import
 * (spec §1, CSV export; checked with LibreOffice's CSV import in test/export-spreadsheet.test.ts).
 * @example csvField('=HYPERLINK("x")') // '"\t=HYPERLINK(""x"")"'
 */
export function csvField(value: string | number | boolean | null | undefined): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (
    EXECUTABLE_START.test(text) ||
    (typeof value === 'string' && (LONG_DIGITS.test(text) || CRAWL_MONTH.test(text) || DATE_TIME.test(text)))
  )
    text = `\t${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

/** A whole CSV document: UTF-8 byte order mark, header row, data rows, CRLF line ends (RFC 4180). */
export function toCsv(
  header: readonly string[],
  rows: readonly (readonly (string | number | boolean | null | undefined)[])[],
): string {
  return UTF8_BOM + [header, ...rows].map((row) => row.map(csvField).join(',')).join('\r\n') + '\r\n';
}

/** Parses CSV written by `toCsv` (quoted fields, CRLF); used by tests to check exports field by field. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = text.startsWith(UTF8_BOM) ? 1 : 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}
