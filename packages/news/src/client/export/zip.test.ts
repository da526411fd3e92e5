import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { unzipSync } from 'fflate';
import { crc32, zipFiles } from './zip.ts';

describe('ZIP writer', () => {
  it('computes the IEEE CRC-32 of the check string and of nothing', () => {
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
    expect(crc32(new Uint8Array(0))).toBe(0);
  });

  it('writes archives another ZIP reader opens to the same files and bytes, in order', async () => {
    // Paths start with a letter: Object.entries lists integer-like keys first, whatever the insertion order.
    const path = fc
      .string({ unit: 'grapheme', maxLength: 40 })
      .map((p) => `f${p}`)
      .filter((p) => !p.endsWith('/'));
    const file = fc.tuple(path, fc.uint8Array({ maxLength: 5000 }));
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(file, { selector: ([p]) => p, maxLength: 6 }), async (files) => {
        const zipped = await zipFiles(Object.fromEntries(files));
        const back = unzipSync(zipped);
        expect(Object.keys(back)).toEqual(files.map(([p]) => p));
        for (const [p, data] of files) expect(back[p]).toEqual(data);
      }),
      { numRuns: 40 },
    );
  });

  it('deflates: repetitive XML shrinks, and the same files give the same bytes', async () => {
    const xml = new TextEncoder().encode('<row><c t="inlineStr"><is><t>x</t></is></c></row>'.repeat(2000));
    const a = await zipFiles({ 'xl/worksheets/sheet1.xml': xml });
    expect(a.length).toBeLessThan(xml.length / 20);
    expect(await zipFiles({ 'xl/worksheets/sheet1.xml': xml })).toEqual(a);
  });
});
