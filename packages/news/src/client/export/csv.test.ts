import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { csvField, parseCsv, toCsv } from './csv.ts';

describe('CSV fields', () => {
  it('starts with a UTF-8 byte order mark and quotes every field, including numbers and empty values', () => {
    expect(toCsv(['a', 'b', 'c'], [[1, null, 'x']])).toBe('\uFEFF"a","b","c"\r\n"1","","x"\r\n');
  });

  it.each(['=1+2', '+49 30 1234', '-5', '@SUM(A1)', '\tindent', '\rcr'])(
    'prefixes %j with a tab so a spreadsheet cannot execute it',
    (v) => {
      expect(csvField(v)).toBe(`"\t${v.replace(/"/g, '""')}"`);
    },
  );

  it('leaves ordinary text and numbers a spreadsheet keeps exactly unchanged', () => {
    expect(csvField('Merkel says "no"')).toBe('"Merkel says ""no"""');
    expect(csvField('123456789012345')).toBe('"123456789012345"');
    expect(csvField(9007199254740991)).toBe('"9007199254740991"');
  });

  it('prefixes digit strings longer than 15 digits (hashes) with a tab so a spreadsheet keeps them as text', () => {
    expect(csvField('18446744073709551615')).toBe('"\t18446744073709551615"');
    expect(csvField('1234567890123456')).toBe('"\t1234567890123456"');
  });

  it('prefixes a crawl month with a tab so a spreadsheet does not turn it into a date', () => {
    expect(csvField('2024-03')).toBe('"\t2024-03"');
    expect(csvField('2024-03.p001')).toBe('"2024-03.p001"');
  });

  it('prefixes a date or timestamp in any form with a tab, so one column holds one type (text) in a spreadsheet', () => {
    for (const v of [
      '2026-01-06T17:48:23.417897',
      '2026-01-06T17:48:23+00:00',
      '2026-01-06 17:48:23',
      '2026-01-06',
      '2026-01-06T17:48:23Z',
    ]) {
      expect(csvField(v)).toBe(`"\t${v}"`);
    }
    expect(csvField('2026-01-06 Pressekonferenz')).toBe('"2026-01-06 Pressekonferenz"');
  });

  it('round-trips any text, with the tab rule applied exactly once', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.string(), { minLength: 1, maxLength: 4 }), { maxLength: 5 }), (rows) => {
        const width = 4;
        const padded = rows.map((r) => [...r, '', '', '', ''].slice(0, width));
        const parsed = parseCsv(toCsv(['h1', 'h2', 'h3', 'h4'], padded));
        expect(parsed[0]).toEqual(['h1', 'h2', 'h3', 'h4']);
        expect(parsed.slice(1)).toEqual(
          padded.map((r) =>
            r.map((v) =>
              /^[=+\-@\t\r]/.test(v) ||
              /^\d{16,}$/.test(v) ||
              /^\d{4}-\d{2}(?:-\d{2}(?:[T ]\d{2}:\d{2}[\d:.,+\-Z]*)?)?$/.test(v)
                ? `\t${v}`
                : v,
            ),
          ),
        );
      }),
    );
  });
});
