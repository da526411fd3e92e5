import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseNestedParams } from './nested-params.ts';

describe('parseNestedParams', () => {
  it('reads PHP-style lists and objects', () => {
    expect({ ...parseNestedParams('a[]=1&a[]=2&venue[city]=Rome&venue[zip]=00100&x=1&x=2') }).toEqual({
      a: ['1', '2'], venue: { city: 'Rome', zip: '00100' }, x: '2',
    });
  });
  it('decodes plus and percent escapes', () => {
    expect(parseNestedParams('search=foo+bar%21').search).toBe('foo bar!');
  });
  it('ignores prototype keys', () => {
    const out = parseNestedParams('__proto__[x]=1&a[__proto__]=2');
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    expect(Object.keys(out)).toEqual(['a']);
  });
  it('keeps every plain key-value pair it is given', () => {
    fc.assert(fc.property(fc.dictionary(fc.stringMatching(/^[a-z_]{1,8}$/), fc.string()), (dict) => {
      const qs = new URLSearchParams(dict).toString();
      expect({ ...parseNestedParams(qs) }).toEqual(dict);
    }));
  });
});

describe('parseNestedParams lists', () => {
  it('turns 0..n-1 keyed maps into lists', () => {
    expect(parseNestedParams('o[0][organizer]=A&o[1][id]=5').o).toEqual([{ organizer: 'A' }, { id: '5' }]);
  });
});
