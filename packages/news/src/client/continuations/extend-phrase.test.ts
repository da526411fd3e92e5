import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { extendPhrase, formatShare, parseContinuationView } from './extend-phrase.ts';

describe('extending a phrase by a continuation', () => {
  it('adds the words on their side, a space between', () => {
    expect(extendPhrase('oil prices', ['rose', 'sharply'], 'right')).toBe('oil prices rose sharply');
    expect(extendPhrase('prices', ['oil'], 'left')).toBe('oil prices');
  });

  it('joins words of scripts written without spaces directly', () => {
    expect(extendPhrase('東京', ['都'], 'right')).toBe('東京都');
    expect(extendPhrase('東京', ['in'], 'right')).toBe('東京 in');
    expect(extendPhrase('ترامب', ['قال'], 'left')).toBe('قال ترامب');
  });

  it('keeps the phrase whole and in place for any words', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }),
        fc.array(fc.string({ minLength: 1 }), { minLength: 1, maxLength: 3 }),
        (phrase, words) => {
          expect(extendPhrase(phrase, words, 'right').startsWith(phrase)).toBe(true);
          expect(extendPhrase(phrase, words, 'left').endsWith(phrase)).toBe(true);
        },
      ),
    );
  });

  it('reads unknown URL values as the defaults and formats shares', () => {
    expect(parseContinuationView('left', '3')).toEqual({ direction: 'left', words: 3 });
    expect(parseContinuationView('up', '9')).toEqual({ direction: 'right', words: 1 });
    expect(formatShare(0.1234)).toBe('12.3%');
  });
});
