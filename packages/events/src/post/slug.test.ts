import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { nextFreeSlug, sanitizeTitle } from './slug.ts';

describe('sanitizeTitle', () => {
  it('makes WordPress-style slugs', () => {
    expect(sanitizeTitle('Café & Bar — 2018!')).toBe('cafe-bar-2018');
    expect(sanitizeTitle('  Event   01 ')).toBe('event-01');
    expect(sanitizeTitle('Crème Brûlée Workshop ☕')).toBe('creme-brulee-workshop-%e2%98%95');
    expect(sanitizeTitle('Straße v1.2 “quoted” – Ærø')).toBe('strasse-v1-2-quoted-aero');
    expect(sanitizeTitle('Тест')).toBe('%d1%82%d0%b5%d1%81%d1%82');
  });
  it('only ever yields lower-case letters, digits, percent-encoded bytes and single inner dashes', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const slug = sanitizeTitle(s);
        expect(slug).not.toMatch(/--|^-|-$|[A-Z\s]/);
        expect(slug).toMatch(/^(?:[a-z0-9_-]|%[0-9a-f]{2})*$/);
      }),
    );
  });
});

describe('nextFreeSlug', () => {
  it('never returns a taken slug and prefers the lowest suffix', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: 30 })), (ns) => {
        const taken = new Set(ns.map((n) => (n === 1 ? 'x' : `x-${n}`)));
        const got = nextFreeSlug('x', taken);
        expect(taken.has(got)).toBe(false);
        const naive = [1, ...Array.from({ length: 40 }, (_, i) => i + 2)]
          .map((n) => (n === 1 ? 'x' : `x-${n}`))
          .find((s) => !taken.has(s));
        expect(got).toBe(naive);
      }),
    );
  });
});
