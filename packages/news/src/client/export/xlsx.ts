import { zipFiles } from './zip.ts';

/** A cell: text stays text whatever it looks like (an inline string is never a number, date or formula); numbers stay numbers. */
export type XlsxCell = string | number | boolean | null | undefined;

/** Characters XML 1.0 cannot carry (controls other than tab, line feed, carriage return; lone surrogates). */
const NOT_XML =
  // eslint-disable-next-line no-control-regex -- matching those control characters is the point
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function xmlText(s: string): string {
  return s
    .replace(NOT_XML, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/** Column letters of a 0-based index: 0 → A, 25 → Z, 26 → AA. */
export function columnName(i: number): string {
  let name = '';
  for (let n = i + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

/** Longest text a spreadsheet cell holds (Excel's limit); longer text is cut, with an ellipsis. */
const MAX_CELL_CHARS = 32_767;

function cell(ref: string, v: XlsxCell): string {
  if (v === null || v === undefined || v === '') return '';
  if (typeof v === 'number' && Number.isFinite(v)) return `<c r="${ref}"><v>${v}</v></c>`;
  const text = String(v).length > MAX_CELL_CHARS ? `${String(v).slice(0, MAX_CELL_CHARS - 1)}…` : String(v);
  return `<c r="${ref}" t="inlineStr"><is><t xml:space="preserve">${xmlText(text)}</t></is></c>`;
}

const FILES = {
  '[Content_Types].xml':
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>',
  '_rels/.rels':
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
  'xl/_rels/workbook.xml.rels':
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
};

/**
 * A one-sheet XLSX workbook (Office Open XML in a ZIP). Every text is an inline string, so a 20-digit
 * hash, a crawl month or `=1+1` arrive in LibreOffice and Excel exactly as written, with nothing added.
 * @example await xlsxWorkbook('matches', ['text_xxhash64'], [['14196768045643192942']]) // Uint8Array starting with "PK"
 */
export function xlsxWorkbook(
  sheetName: string,
  header: readonly string[],
  rows: readonly (readonly XlsxCell[])[],
): Promise<Uint8Array> {
  const xmlRows = [header, ...rows].map(
    (row, r) => `<row r="${r + 1}">${row.map((v, c) => cell(`${columnName(c)}${r + 1}`, v)).join('')}</row>`,
  );
  const sheet = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${xmlRows.join('')}</sheetData></worksheet>`;
  const name = xmlText(sheetName.replace(/[\\/?*[\]:]/g, ' ').slice(0, 31) || 'Sheet1');
  const workbook = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="${name}" sheetId="1" r:id="rId1"/></sheets></workbook>`;
  const utf8 = new TextEncoder();
  return zipFiles({
    ...Object.fromEntries(Object.entries(FILES).map(([path, xml]) => [path, utf8.encode(xml)])),
    'xl/workbook.xml': utf8.encode(workbook),
    'xl/worksheets/sheet1.xml': utf8.encode(sheet),
  });
}

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
