import { describe, expect, it } from 'vitest';
import { trimmedPhrase, usesQueryLanguage } from './query-syntax.ts';

describe('usesQueryLanguage', () => {
  it('sends operators, quotes, parentheses, prefixes and title: to the query language', () => {
    for (const q of [
      'oil AND prices',
      'oil OR gas',
      'oil NOT olive',
      'climate NEAR/10 protest',
      '"oil prices"',
      '(a)',
      'econom*',
      'title:Merkel',
      'Ölpreis* Berlin',
    ]) {
      expect(usesQueryLanguage(q), q).toBe(true);
    }
  });

  it('keeps plain phrases, lower-case operator words and a lone * as phrases', () => {
    for (const q of [
      'oil prices',
      ' oil prices ',
      'Bundesregierung',
      'rock and roll',
      'Near/3',
      'ANDROID',
      '5 * 3',
      '東京',
    ]) {
      expect(usesQueryLanguage(q), q).toBe(false);
    }
  });
});

describe('trimmedPhrase', () => {
  it('trims the ends and says whether it did', () => {
    expect(trimmedPhrase(' oil prices ')).toEqual({ phrase: 'oil prices', trimmed: true });
    expect(trimmedPhrase('oil prices')).toEqual({ phrase: 'oil prices', trimmed: false });
    expect(trimmedPhrase('   ')).toEqual({ phrase: '', trimmed: false });
  });
});
