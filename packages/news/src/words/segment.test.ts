import { describe, expect, it } from 'vitest';
import { hasCorpora, realCorpusTexts } from './real-corpora.fixture.ts';
import fc from 'fast-check';
import { wordList, wordsOf } from './segment.ts';

/** The reference: every segment of ICU's word segmenter that holds a letter or digit, as `offset:word`. */
const segmenter = new Intl.Segmenter('und', { granularity: 'word' });
function reference(text: string): string[] {
  const out: string[] = [];
  for (const s of segmenter.segment(text)) if (/[\p{L}\p{N}]/u.test(s.segment)) out.push(`${s.index}:${s.segment}`);
  return out;
}
const ours = (text: string) => [...wordsOf(text)].map((w) => `${w.start}:${w.word}`);

// Characters that test each shortcut: spaces of every kind, mid-word punctuation, connector and format characters,
// combining marks, emoji modifiers, Hebrew quotes, Katakana and the dictionary scripts, digits of two scripts.
const TRICKY = [
  ...'aZéßΣжقdž09٣ \t\n\u00a0\u202f\u2007\u3000.,;:\'’"«»()-_\u00ad\u200d\u200c\u0301\u064e🏽👍🇩🇪%$+#@&/·אב"カナ日本語がภาษาไทย',
];

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
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 80 }), (text) => {
        let last = 0;
        for (const w of wordsOf(text)) {
          expect(text.slice(w.start, w.end)).toBe(w.word);
          expect(w.start).toBeGreaterThanOrEqual(last);
          last = w.end;
        }
      }),
    );
  });

  it("equals ICU's segmentation on random text mixing scripts, spaces and punctuation (property)", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...TRICKY), { maxLength: 60 }), (chars) => {
        const text = chars.join('');
        expect(ours(text)).toEqual(reference(text));
      }),
      { numRuns: 3000 },
    );
  });

  it.runIf(hasCorpora())("equals ICU's segmentation on the first 300 articles of each real corpus", () => {
    for (const t of realCorpusTexts(300)) expect(ours(t)).toEqual(reference(t));
  });

  it('segments a run longer than one window (no space to cut at) as ICU does over the whole run', () => {
    // 24,000 characters without a space: several windows of segmentRun, each cut inside the run.
    const run = 'Pegel-Nord,Wasserstand;17.4mm(stabil)/Strömung:notiert…'.repeat(440);
    expect(ours(run)).toEqual(reference(run));
    const japanese = '東京の原油価格が上昇した。'.repeat(1500);
    expect(ours(japanese)).toEqual(reference(japanese));
  });
});
