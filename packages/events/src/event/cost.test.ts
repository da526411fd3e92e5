import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { costValues, formatCost, parseCost } from './cost.ts';

const SITE = { symbol: '$', position: 'prefix' } as const;
/** What the plugin stores and answers for a cost sent on create (recorded from TEC 6.17.2). */
function answer(cost: string) {
  const own = parseCost([cost]);
  return {
    cost: formatCost([cost], own, SITE),
    symbol: own.symbol,
    position: own.position,
    values: costValues([cost]),
  };
}

describe('cost', () => {
  it.each([
    ['45', '$45', '', '', ['45']],
    ['€15', '€15', '€', 'prefix', ['15']],
    ['£8.50', '£8.50', '£', 'prefix', ['8.50']],
    ['¥1,000', '$1,000', '', '', ['1000']],
    ['15 EUR', '15EUR', 'EUR', 'postfix', ['15']],
    ['USD 20', 'USD20', 'USD', 'prefix', ['20']],
    ['5 - 10', '$5 – $10', '', '', ['5', '10']],
    ['$10-$30', '$10 – $30', '', '', ['10', '30']],
    ['Free', 'Free', '', '', ['free']],
    ['Donation', 'Donation', '', '', ['donation']],
    ['12,50 €', '$12,50', '', '', ['12.50']],
    ['Free - $20', 'Free - $20', 'Free - $', 'prefix', ['20']],
    ['5, 10, 15', '$15', '', '', ['5.', '10.', '15']],
    ['20$', '20$', '$', 'postfix', ['20']],
  ])('%s answers as the plugin does', (sent, cost, symbol, position, values) => {
    expect(answer(sent)).toEqual({ cost, symbol, position, values });
  });

  it('writes a zero as Free and keeps the symbol of several stored values', () => {
    const raw = ['0$', '20$', '30$'];
    const own = parseCost(raw);
    expect(own).toEqual({ symbol: '$', position: 'postfix' });
    expect(formatCost(raw, own, SITE)).toBe('Free – 30$');
    expect(costValues(raw)).toEqual(['0', '20', '30']);
    expect(formatCost([], own, SITE)).toBe('');
  });

  it('loses the symbol of repeated values, as the plugin does', () => {
    expect(parseCost(['€11', '€11', '€2'])).toEqual({ symbol: '', position: '' });
  });

  it('uses the site currency when the cost has none of its own', () => {
    expect(formatCost(['7'], { symbol: '', position: '' }, { symbol: 'kr', position: 'postfix' })).toBe('7kr');
  });

  it('shows the smallest and largest of several distinct numbers, values sorted numerically', () => {
    // Distinct: with a repeated value the plugin's symbol inference compares the wrong parts and finds no symbol.
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: 100000 }), { minLength: 1, maxLength: 8 }), (ns) => {
        const raw = ns.map((n) => `€${n}`);
        const sorted = [...new Set(ns)].sort((a, b) => a - b);
        expect(costValues(raw)).toEqual(sorted.map(String));
        const lo = `€${sorted[0]}`;
        const hi = `€${sorted[sorted.length - 1]}`;
        expect(formatCost(raw, parseCost(raw), SITE)).toBe(lo === hi ? lo : `${lo} – ${hi}`);
      }),
    );
  });
});
