import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { nextFreeSlug, sanitizeTitle } from './slug.ts';

describe('sanitizeTitle', () => {
  it('makes WordPress-style slugs', () => {
    expect(sanitizeTitle('Café & Bar — 2018!')).toBe('cafe-bar-2018');
    expect(sanitizeTitle('  Event   01 ')).toBe('event-01');
  });
  it('only ever yields lower-case letters, digits and single inner dashes', () => {
    fc.assert(fc.property(fc.string(), (s) => {
      const slug = sanitizeTitle(s);
      expect(slug).not.toMatch(/--|^-|-$|[A-Z\s]/);
    }));
  });
});

describe('nextFreeSlug', () => {
  it('never returns a taken slug and prefers the lowest suffix', () => {
    fc.assert(fc.property(fc.uniqueArray(fc.integer({ min: 1, max: 30 })), (ns) => {
      const taken = new Set(ns.map((n) => (n === 1 ? 'x' : `x-${n}`)));
      const got = nextFreeSlug('x', taken);
      expect(taken.has(got)).toBe(false);
      const naive = [1, ...Array.from({ length: 40 }, (_, i) => i + 2)].map((n) => (n === 1 ? 'x' : `x-${n}`)).find((s) => !taken.has(s));
      expect(got).toBe(naive);
    }));
  });
});
