import { describe, expect, it } from 'vitest';
import { readCsv } from './csv-file.ts';
import { CsvImportError } from './import-error.ts';

const limits = { maxBytes: 64, maxRows: 2, maxFieldChars: 5 };
const refusal = (text: string | Uint8Array) => {
  try {
    readCsv(typeof text === 'string' ? Buffer.from(text) : text, limits);
  } catch (err) {
    if (err instanceof CsvImportError) return `${err.kind}: ${err.message}`;
    throw err;
  }
  return 'accepted';
};

describe('readCsv limits, at their edges', () => {
  it('accepts exactly maxRows data rows and refuses one more', () => {
    expect(refusal('a,b\n1,2\n3,4\n')).toBe('accepted');
    expect(refusal('a,b\n1,2\n3,4\n5,6\n')).toBe('too_large: the file has more than 2 rows');
  });
  it('accepts a cell of exactly maxFieldChars and refuses one longer, with its line', () => {
    expect(refusal('a,b\n12345,2\n')).toBe('accepted');
    expect(refusal('a,b\n1,2\n123456,2\n')).toMatch(/^too_large: line 3: a field is longer than 5 characters/);
  });
  it('accepts exactly maxBytes and refuses one byte more before decoding anything', () => {
    const exact = `a,b\n${'1,2\n'.repeat(2)}`.padEnd(64, '\n');
    expect(Buffer.byteLength(exact)).toBe(64);
    expect(refusal(exact)).toBe('accepted');
    expect(refusal(`${exact}\n`)).toBe('too_large: the file has 65 bytes; at most 64 are accepted');
  });
});

describe('readCsv shapes', () => {
  it('reports each row at the line it starts on, after quoted line breaks and blank lines, with LF, CRLF or CR', () => {
    for (const eol of ['\n', '\r\n', '\r']) {
      const text = ['\uFEFFName,Note', '"A","x', 'y ""q"" end"', '', 'B,z', 'C,"w"', ''].join(eol);
      const file = readCsv(Buffer.from(text), { maxBytes: 1000, maxRows: 10, maxFieldChars: 20 });
      expect(file.header).toEqual(['Name', 'Note']);
      expect(
        file.rows.map((r) => [r.line, r.values[0]]),
        JSON.stringify(eol),
      ).toEqual([
        [2, 'A'],
        [5, 'B'],
        [6, 'C'],
      ]);
    }
  });
  it('refuses text that is not UTF-8, naming the first bad byte', () => {
    expect(refusal(Uint8Array.from([0x61, 0x0a, 0xff]))).toMatch(
      /^malformed: the file is not UTF-8 text \(at byte 2\)/,
    );
  });
});
