import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { filterKey } from './index.ts';

describe('filterKey (NFKC + full case folding)', () => {
  it.each([
    ['DE', 'de'],
    ['ｄｅ', 'de'],
    ['ＤＥ', 'De'],
    ['STRASSE', 'straße'],
    ['Straße', 'STRAẞE'],
    ['ΣΑΣ', 'σας'],
    ['ﬁnance', 'FINANCE'],
    ['\u212Bngström', '\u00E5ngström'],
    ['Cafe\u0301', 'CAFÉ'],
    ['İstanbul', 'i\u0307stanbul'],
  ])('makes %s and %s match', (a, b) => {
    expect(filterKey(a)).toBe(filterKey(b));
  });

  it.each([
    ['de', 'en'],
    ['Berlin', 'Berlin '],
    ['ı', 'i'],
    ['strasse', 'strase'],
  ])('keeps %s and %s apart', (a, b) => {
    expect(filterKey(a)).not.toBe(filterKey(b));
  });

  it('is idempotent on any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (s) => filterKey(filterKey(s)) === filterKey(s)),
      { numRuns: 3000 },
    );
  });

  it('ignores case: lower-casing never changes the key, upper-casing only for the Turkic dotless ı', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (s) => {
        const key = filterKey(s);
        expect(filterKey(s.toLowerCase())).toBe(key);
        if (!s.includes('ı')) expect(filterKey(s.toUpperCase())).toBe(key);
      }),
      { numRuns: 3000 },
    );
  });

  it('ignores case for every cased code point of Unicode', () => {
    const failures: string[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const c = String.fromCodePoint(cp);
      const lower = c.toLowerCase();
      const upper = c.toUpperCase();
      if (lower === c && upper === c) continue;
      const key = filterKey(c);
      if (filterKey(lower) !== key || (cp !== 0x131 && filterKey(upper) !== key)) failures.push(cp.toString(16));
    }
    expect(failures).toEqual([]);
  });

  it('agrees with the RegExp engine’s simple case folding wherever full folding gives one code point', () => {
    // RegExp /iu canonicalises by simple case folding (C + S); full folding (C + F) must agree wherever F is silent.
    const failures: string[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const c = String.fromCodePoint(cp);
      // Folding derives from the case mappings, so an uncased code point folds to itself.
      if ((c.toLowerCase() === c && c.toUpperCase() === c) || c.normalize('NFKC') !== c) continue;
      const key = filterKey(c);
      if (key === c || [...key].length !== 1) continue;
      if (!new RegExp(`^\\u{${cp.toString(16)}}$`, 'iu').test(key)) failures.push(cp.toString(16));
    }
    expect(failures).toEqual([]);
  });

  it('maps ASCII typed in full width to the same key as ASCII', () => {
    const fullWidth = (s: string) => s.replace(/[!-~]/g, (ch) => String.fromCharCode(ch.charCodeAt(0) + 0xfee0));
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(...'abcXYZ019.-_'), maxLength: 20 }),
        (s) => filterKey(fullWidth(s)) === filterKey(s),
      ),
    );
  });
});
