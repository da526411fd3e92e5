import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hashWords } from './word-hashes.ts';
import { wordList } from './segment.ts';

const hashesOf = (text: string): number[] => {
  const bytes = Buffer.from(text, 'utf8');
  const out = new Uint32Array(bytes.length);
  return [...out.subarray(0, hashWords(bytes, out))];
};

describe('hashWords', () => {
  it('finds the same ASCII words as the UAX #29 segmenter, case-folded', () => {
    const alphabet = fc.constantFrom(..."aZb9_ .,;:'!-?\n0E".split(''));
    fc.assert(
      fc.property(
        fc.array(alphabet, { maxLength: 40 }).map((cs) => cs.join('')),
        (text) => {
          const words = wordList(text).map((w) => w.toLowerCase());
          expect(hashesOf(text)).toEqual(words.flatMap((w) => hashesOf(w)));
          expect(hashesOf(text)).toHaveLength(words.length);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('hashes equal words equally and ignores case only in ASCII letters', () => {
    const [a, b, c, d] = hashesOf('Straße straße STRASSE strasse');
    expect(a).toBe(b);
    expect(c).toBe(d);
    expect(a).not.toBe(c);
  });

  it('makes each kana or ideograph a word and skips CJK punctuation', () => {
    expect(hashesOf('原油価格が上昇。')).toHaveLength(7);
    expect(hashesOf('Müller-Lüdenscheidt sagt «nein»')).toHaveLength(4);
  });
});
