import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { LEAD_MAX_CHARS, articleHeading, leadSentence } from './lead-sentence.ts';

describe('lead sentence', () => {
  it('ends at the first sentence end, in Latin and Japanese text, and folds whitespace', () => {
    expect(leadSentence('  Die Regierung\n tagt. Morgen mehr.')).toBe('Die Regierung tagt.');
    expect(leadSentence('東京で会議。明日も続く。')).toBe('東京で会議。');
    expect(leadSentence('Kurs 3.5 Prozent höher! Danach')).toBe('Kurs 3.5 Prozent höher!');
  });

  it('cuts a long lead at a word boundary with an ellipsis', () => {
    const long = `${'Wort '.repeat(60)}Ende.`;
    const lead = leadSentence(long);
    expect(lead.endsWith('Wort…')).toBe(true);
    expect(lead.length).toBeLessThanOrEqual(LEAD_MAX_CHARS + 1);
  });

  it('is never longer than the limit plus the ellipsis and is a prefix of the folded text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), (text) => {
        const lead = leadSentence(text);
        const folded = text.replace(/\s+/g, ' ').trim();
        expect(lead.length).toBeLessThanOrEqual(LEAD_MAX_CHARS + 1);
        expect(folded.startsWith(lead.replace(/…$/, ''))).toBe(true);
      }),
    );
  });

  it('heads an article shown on its own by its title, else its lead sentence, never "Untitled article" when text is there', () => {
    expect(articleHeading('  Brücke eröffnet ', 'Text.', true, 'Kanal Kurier')).toBe('Brücke eröffnet');
    expect(articleHeading(null, 'Die Regierung\ntagt. Morgen mehr.', true, 'Kanal Kurier')).toBe('Die Regierung tagt.');
    expect(articleHeading('', ' ', true, 'Kanal Kurier')).toBe('Untitled article from Kanal Kurier');
    expect(articleHeading(null, 'mitten im Text', false, '')).toBe('Untitled article from an unknown outlet');
  });
});
