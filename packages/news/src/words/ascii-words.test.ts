import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { asciiWords, isAsciiText } from './ascii-words.ts';
import { foldWord, type WordCase } from './segment.ts';

/** The reference: every segment of ICU's word segmenter that holds a letter or digit, as `offset:word`. */
const segmenter = new Intl.Segmenter('und', { granularity: 'word' });
function reference(text: string, wordCase: WordCase): string[] {
  const out: string[] = [];
  for (const s of segmenter.segment(text))
    if (/[\p{L}\p{N}]/u.test(s.segment))
      out.push(
        `${s.index}:${s.index + s.segment.length}:${wordCase === 'insensitive' ? foldWord(s.segment) : s.segment}`,
      );
  return out;
}
function fast(text: string, wordCase: WordCase): string[] {
  const out: string[] = [];
  asciiWords(text, wordCase, (w) => (out.push(`${w.start}:${w.end}:${w.word}`), true));
  return out;
}

// Every class the rules name, several times over (letters, digits, the mid-word characters, `_`), and the other
// punctuation of news text: apostrophes, dots, colons and commas between letters and digits are the cases at stake.
const CHARS = [...'aZq09 .:,;\'_"-()%$&@/!?\t\n\r#+=*<>[]{}|~`^\\\u0000\u007f'];
const WEIGHTED = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...'aZq09') },
  { weight: 4, arbitrary: fc.constantFrom(...".:,;'_ ") },
  { weight: 2, arbitrary: fc.constantFrom(...CHARS) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 0x7f }).map((c) => String.fromCharCode(c)) },
);

describe('asciiWords (UAX #29 on ASCII without ICU)', () => {
  it("equals ICU's segmentation on random ASCII text dense in mid-word punctuation (property)", () => {
    fc.assert(
      fc.property(
        fc.array(WEIGHTED, { maxLength: 40 }),
        fc.constantFrom<WordCase>('sensitive', 'insensitive'),
        (chars, c) => {
          const text = chars.join('');
          expect(fast(text, c)).toEqual(reference(text, c));
        },
      ),
      { numRuns: 8_000 },
    );
  });

  it("equals ICU's segmentation on any ASCII string (property)", () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary-ascii', maxLength: 60 }), (text) => {
        expect(fast(text, 'sensitive')).toEqual(reference(text, 'sensitive'));
      }),
      { numRuns: 5_000 },
    );
  });

  it('keeps numbers, abbreviations and contractions whole and stops when asked', () => {
    expect(
      fast("U.S. oil's 1,000.5 barrels: a:b __x _ x_1", 'sensitive').map((s) => s.split(':').slice(2).join(':')),
    ).toEqual(['U.S', "oil's", '1,000.5', 'barrels', 'a:b', '__x', 'x_1']);
    const seen: string[] = [];
    asciiWords('one two three', 'sensitive', (w) => (seen.push(w.word), seen.length < 2));
    expect(seen).toEqual(['one', 'two']);
  });

  it('tells ASCII text from text with any other character', () => {
    expect(isAsciiText('plain text, 100%')).toBe(true);
    expect(isAsciiText('café')).toBe(false);
    expect(isAsciiText('a\u0080')).toBe(false);
  });
});
