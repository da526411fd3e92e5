import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createClientBudget } from './client-budget.ts';

describe('createClientBudget', () => {
  it('allows exactly `limit` units per client and refuses the next, per client', () => {
    const budget = createClientBudget(3);
    expect([1, 2, 3, 4].map(() => budget.tryTake('a'))).toEqual([true, true, true, false]);
    expect(budget.tryTake('b')).toBe(true);
    budget.give('a');
    expect(budget.tryTake('a')).toBe(true);
    expect(budget.tryTake('a')).toBe(false);
  });

  it('forgets a client once it holds nothing', () => {
    const budget = createClientBudget(2);
    budget.tryTake('203.0.113.9');
    budget.give('203.0.113.9');
    expect([budget.clients, budget.held('203.0.113.9')]).toEqual([0, 0]);
  });

  it('throws on a give without a take', () => {
    expect(() => createClientBudget(1).give('a')).toThrow(/without a matching tryTake/);
  });

  it('agrees with a naive count per client over any sequence of takes and gives', () => {
    const op = fc.record({ client: fc.constantFrom('a', 'b', 'c', '::1'), take: fc.boolean() });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), fc.array(op, { maxLength: 200 }), (limit, ops) => {
        const budget = createClientBudget(limit);
        const naive: Record<string, number> = {};
        for (const { client, take } of ops) {
          const n = naive[client] ?? 0;
          if (take) {
            expect(budget.tryTake(client)).toBe(n < limit);
            if (n < limit) naive[client] = n + 1;
          } else if (n > 0) {
            budget.give(client);
            naive[client] = n - 1;
          }
          expect(budget.held(client)).toBe(naive[client] ?? 0);
        }
        expect(budget.clients).toBe(Object.values(naive).filter((n) => n > 0).length);
      }),
    );
  });
});
