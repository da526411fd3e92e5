import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { wordList, wordsOf } from './segment.ts';

describe('words (UAX #29 segments with a letter or digit)', () => {
  it('drops punctuation, spaces and symbols and keeps numbers', () => {
    expect(wordList('Oil prices rose 3.5% — "again"!')).toEqual(['Oil', 'prices', 'rose', '3.5', 'again']);
  });

  it('folds case fully when matching ignores capitals', () => {
    expect(wordList('Die STRASSE und die Straße', 'insensitive')).toEqual(['die', 'strasse', 'und', 'die', 'strasse']);
  });

  it('splits Japanese without spaces into dictionary words, and keeps Arabic words whole', () => {
    expect(wordList('原油価格が上昇')).toEqual(['原油', '価格', 'が', '上昇']);
    expect(wordList('قال ترامب إن')).toEqual(['قال', 'ترامب', 'إن']);
  });

  it('gives offsets that cut exactly the word out of the text, in increasing order', () => {
    fc.assert(fc.property(fc.string({ unit: 'grapheme', maxLength: 80 }), (text) => {
      let last = 0;
      for (const w of wordsOf(text)) {
        expect(text.slice(w.start, w.end)).toBe(w.word);
        expect(w.start).toBeGreaterThanOrEqual(last);
        last = w.end;
      }
    }));
  });
});
