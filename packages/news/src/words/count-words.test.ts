import { describe, expect, it } from 'vitest';
import { hasCorpora, realCorpusTexts } from './real-corpora.fixture.ts';
import fc from 'fast-check';
import { countWords } from './count-words.ts';
import { wordsOf } from './segment.ts';

/** The reference: `wordsOf`'s words, counted. */
function reference(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const w of wordsOf(text)) counts.set(w.word, (counts.get(w.word) ?? 0) + 1);
  return counts;
}
function ours(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  countWords(counts, text);
  return counts;
}
const sorted = (m: Map<string, number>) => [...m].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

// Every ASCII character (the fast path decides on each), plus what sends a piece to the segmenter.
const ASCII = Array.from({ length: 128 }, (_, c) => String.fromCharCode(c));
const OTHER = [...'éßжق日本語がカナ\u0301\u00a0\u202f\u2007\u3000\u00ad\u200d’«»🏽👍'];

describe('countWords', () => {
  it('counts case-sensitive words and skips punctuation', () => {
    expect(sorted(ours('Oil, oil and gas-oil. U.S. 1,000 $5 e_mail'))).toEqual(
      sorted(
        new Map([
          ['Oil', 1],
          ['oil', 2],
          ['and', 1],
          ['gas', 1],
          ['U.S', 1],
          ['1,000', 1],
          ['5', 1],
          ['e_mail', 1],
        ]),
      ),
    );
  });

  it("equals wordsOf's counts on random ASCII text, every character weighted alike (property)", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...ASCII), { maxLength: 80 }), (chars) => {
        const text = chars.join('');
        expect(sorted(ours(text))).toEqual(sorted(reference(text)));
      }),
      { numRuns: 5000 },
    );
  });

  it("equals wordsOf's counts on words with punctuation around and inside, and other scripts (property)", () => {
    const piece = fc.oneof(
      fc.stringMatching(/^[A-Za-z0-9]{1,6}$/),
      fc.constantFrom(...ASCII.filter((c) => c >= '!' && c <= '~')),
      fc.constantFrom(' ', '\n', '\t', ' '),
      fc.constantFrom(...OTHER),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        const text = pieces.join('');
        expect(sorted(ours(text))).toEqual(sorted(reference(text)));
      }),
      { numRuns: 5000 },
    );
  });

  it.runIf(hasCorpora())("equals wordsOf's counts on the first 300 articles of each real corpus", () => {
    for (const t of realCorpusTexts(300)) expect(sorted(ours(t))).toEqual(sorted(reference(t)));
  });
});
