import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hitsIn, occursIn, wordStartsBetween } from './article-text.ts';

/** Naive reference: byte offsets of every word start (a letter or digit after anything else), from the string. */
function naiveWordStarts(text: string): number[] {
  const starts: number[] = [];
  let bytes = 0;
  let inWord = false;
  for (const ch of text) {
    const word = /[\p{L}\p{N}]/u.test(ch);
    if (word && !inWord) starts.push(bytes);
    inWord = word;
    bytes += Buffer.byteLength(ch);
  }
  return starts;
}

/** Byte offsets of the text's characters (where an occurrence can start). */
function boundaries(text: string): number[] {
  const out: number[] = [];
  let bytes = 0;
  for (const ch of text) {
    out.push(bytes);
    bytes += Buffer.byteLength(ch);
  }
  return out;
}

const piece = fc.constantFrom(
  'oil',
  'Öl',
  ' ',
  '  ',
  ', ',
  '-',
  'ß',
  '東京',
  '経済',
  'x1',
  '7',
  '\n',
  '😀',
  'Ωμέγα',
  '.',
);

describe('wordStartsBetween', () => {
  it('counts the word starts in (from, to] as numbering every word would, cut past the limit', () => {
    fc.assert(
      fc.property(
        fc.array(piece, { minLength: 1, maxLength: 40 }).map((p) => p.join('')),
        fc.nat(),
        fc.nat(),
        fc.integer({ min: 0, max: 6 }),
        (text, i, j, limit) => {
          const cuts = boundaries(text);
          const a = cuts[i % cuts.length] as number;
          const b = cuts[j % cuts.length] as number;
          const [from, to] = a <= b ? [a, b] : [b, a];
          const exact = naiveWordStarts(text).filter((s) => s > from && s <= to).length;
          expect(wordStartsBetween(Buffer.from(text), from, to, limit)).toBe(Math.min(exact, limit + 1));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('sees no word start at the occurrence itself, only after it', () => {
    const text = Buffer.from('oil, then prices');
    expect(wordStartsBetween(text, 0, 0, 5)).toBe(0);
    expect(wordStartsBetween(text, 0, 10, 5)).toBe(2);
    expect(wordStartsBetween(text, 0, 10, 1)).toBe(2);
    expect(wordStartsBetween(text, 0, 10, 0)).toBe(1);
  });
});

describe('occursIn', () => {
  it('says whether hitsIn finds any occurrence, under every word rule', () => {
    const words = ['oil', 'Öl', '東京', 'x1', 'ß'];
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 40 }).map((p) => p.join('')),
        fc.constantFrom(...words),
        fc.boolean(),
        fc.boolean(),
        (text, word, prefix, wholeWord) => {
          const term = {
            type: 'term',
            text: word,
            phrase: false,
            prefix,
            field: 'body',
            wildcard_word: false,
          } as const;
          const probe = { term, spellings: [Buffer.from(word), Buffer.from(word.toUpperCase())], wholeWord };
          const article = Buffer.from(text);
          expect(occursIn(article, probe)).toBe(hitsIn(article, probe).length > 0);
        },
      ),
      { numRuns: 500 },
    );
  });
});
