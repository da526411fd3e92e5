import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formatCost, parseCost } from './cost.ts';

describe('cost', () => {
  it('formats like the plugin', () => {
    expect(formatCost(['23'], '$', 'prefix')).toBe('$23');
    const p = parseCost(['20$']);
    expect(p).toEqual({ values: ['20'], symbol: '$', position: 'postfix' });
    expect(formatCost(['20$'], p.symbol, 'postfix')).toBe('20$');
    expect(formatCost(['0$', '20$', '30$'], '$', 'postfix')).toBe('Free – 30$');
    expect(parseCost(['25,55']).values).toEqual(['25.55']);
    expect(formatCost([], '$', 'prefix')).toBe('');
  });
  it('sorts values numerically and keeps min and max at the ends', () => {
    fc.assert(fc.property(fc.array(fc.nat({ max: 100000 }), { minLength: 1, maxLength: 8 }), (ns) => {
      const { values } = parseCost(ns.map((n) => `€${n}`));
      const sorted = [...ns].sort((a, b) => a - b).map(String);
      expect(values).toEqual(sorted);
    }));
  });
});
