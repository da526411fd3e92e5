/** Characters that make a spreadsheet treat a cell as a formula (or split it) when they come first. */
const EXECUTABLE_START = /^[=+\-@\t\r]/;

/**
 * One CSV field: always quoted, inner quotes doubled; a cell a spreadsheet could execute gets a leading tab,
 * which keeps the text readable and makes the cell plain text (spec §1, CSV export).
 * @example csvField('=HYPERLINK("x")') // '"\t=HYPERLINK(""x"")"'
 */
export function csvField(value: string | number | boolean | null | undefined): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (EXECUTABLE_START.test(text)) text = `\t${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

/** A whole CSV document: header row then data rows, CRLF line ends (RFC 4180). */
export function toCsv(header: readonly string[], rows: readonly (readonly (string | number | boolean | null | undefined)[])[]): string {
  return [header, ...rows].map((row) => row.map(csvField).join(',')).join('\r\n') + '\r\n';
}

/** Parses CSV written by `toCsv` (quoted fields, CRLF); used by tests to check exports field by field. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i++; }
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { row.push(field); field = ''; }
    else if (c === '\r' && text[i + 1] === '\n') { row.push(field); rows.push(row); row = []; field = ''; i++; }
    else field += c;
  }
  if (field !== '' || row.length > 0) { row.push(field); rows.push(row); }
  return rows;
}
