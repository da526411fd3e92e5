import { describe, expect, it } from 'vitest';
import { costClass } from './cost.ts';

const body = (v: unknown) => Buffer.from(JSON.stringify(v));

describe('costClass', () => {
  it('keeps a declared cheap or expensive cost whatever the body', () => {
    expect(costClass('cheap', body({ query: 'a', case: 'insensitive' }))).toBe('cheap');
    expect(costClass('expensive', body({ query: 'a' }))).toBe('expensive');
  });

  it('makes a by_matching call expensive for case-insensitive or whole-word queries', () => {
    expect(costClass('by_matching', body({ query: 'a', case: 'insensitive' }))).toBe('expensive');
    expect(costClass('by_matching', body({ query: 'a', whole_word: true }))).toBe('expensive');
    // pydantic lax mode accepts these as true, so they must not slip through as cheap.
    expect(costClass('by_matching', body({ query: 'a', whole_word: 'true' }))).toBe('expensive');
    expect(costClass('by_matching', body({ query: 'a', whole_word: 1 }))).toBe('expensive');
  });

  it('leaves a by_matching call cheap for a case-sensitive, not-whole-word query or a body validation will refuse', () => {
    for (const b of [
      { query: 'a' },
      { query: 'a', case: 'sensitive', whole_word: false },
      { query: 'a', case: null, whole_word: null },
    ]) {
      expect(costClass('by_matching', body(b))).toBe('cheap');
    }
    expect(costClass('by_matching', Buffer.from('{not json'))).toBe('cheap');
    expect(costClass('by_matching', Buffer.from('[1]'))).toBe('cheap');
    expect(costClass('by_matching', undefined)).toBe('cheap');
  });
});
