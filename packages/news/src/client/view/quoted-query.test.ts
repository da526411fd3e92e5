import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { quotedQuery, SHOWN_QUERY_CHARS } from './quoted-query.ts';

describe('quotedQuery', () => {
  it('quotes a short query whole', () => {
    expect(quotedQuery('oil prices')).toBe('“oil prices”');
  });
  it('cuts a 10,000-character query visibly and says its length', () => {
    const shown = quotedQuery('oil '.repeat(2500));
    expect(shown).toBe(`“${'oil '.repeat(20).trimEnd()}…” (10,000 characters)`);
  });
  it('never splits a character made of two UTF-16 units and stays short for any query', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 400 }), (q) => {
        const shown = quotedQuery(q);
        return (
          shown.length <= 2 * SHOWN_QUERY_CHARS * 2 + 40 &&
          !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/u.test(shown.replace(/[\uD800-\uDBFF][\uDC00-\uDFFF]/gu, ''))
        );
      }),
    );
  });
});
