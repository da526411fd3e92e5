import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { unzipSync, strFromU8 } from 'fflate';
import { columnName, xlsxWorkbook } from './xlsx.ts';

describe('XLSX workbook', () => {
  it('names columns like a spreadsheet', () => {
    expect([0, 25, 26, 27, 51, 52, 701, 702].map(columnName)).toEqual(['A', 'Z', 'AA', 'AB', 'AZ', 'BA', 'ZZ', 'AAA']);
  });

  it('writes text as inline strings (never numbers or formulas) and numbers as numbers', async () => {
    const files = unzipSync(
      await xlsxWorkbook(
        'matches',
        ['hash', 'n'],
        [
          ['14196768045643192942', 7],
          ['=1+1', null],
        ],
      ),
    );
    expect(Object.keys(files).sort()).toEqual([
      '[Content_Types].xml',
      '_rels/.rels',
      'xl/_rels/workbook.xml.rels',
      'xl/workbook.xml',
      'xl/worksheets/sheet1.xml',
    ]);
    const sheet = strFromU8(files['xl/worksheets/sheet1.xml']!);
    expect(sheet).toContain(
      '<c r="A2" t="inlineStr"><is><t xml:space="preserve">14196768045643192942</t></is></c><c r="B2"><v>7</v></c>',
    );
    expect(sheet).toContain('<c r="A3" t="inlineStr"><is><t xml:space="preserve">=1+1</t></is></c></row>');
    expect(sheet).not.toContain('<f>');
  });

  it('keeps any text as well-formed XML: markup escaped, characters XML cannot carry replaced', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary' }), async (text) => {
        const sheet = strFromU8(unzipSync(await xlsxWorkbook('s', ['t'], [[text]]))['xl/worksheets/sheet1.xml']!);
        const t = /<row r="2">.*<t xml:space="preserve">(.*)<\/t>/s.exec(sheet)?.[1] ?? '';
        // eslint-disable-next-line no-control-regex -- no control character XML forbids may reach the sheet
        expect(t).not.toMatch(/[<>]|[\u0000-\u0008\u000B\u000C\u000E-\u001F]/);
        const back = t
          .replace(/&quot;/g, '"')
          .replace(/&lt;/g, '<')
          .replace(/&gt;/g, '>')
          .replace(/&amp;/g, '&');
        expect(back.length).toBe(text === '' ? 0 : text.length);
      }),
      { numRuns: 40 },
    );
  });
});
