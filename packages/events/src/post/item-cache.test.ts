import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ItemCache } from './item-cache.ts';
import { WriteGeneration } from './write.ts';

type Op =
  | { op: 'get'; key: number }
  | { op: 'getMany'; keys: number[] }
  | { op: 'set'; key: number; bytes: number; stale: boolean }
  | { op: 'setMany'; entries: { key: number; bytes: number }[]; stale: boolean }
  | { op: 'write' };

const ops = fc.array(fc.oneof(
  fc.record({ op: fc.constant('get' as const), key: fc.integer({ min: 0, max: 9 }) }),
  fc.record({ op: fc.constant('set' as const), key: fc.integer({ min: 0, max: 9 }), bytes: fc.integer({ min: 1, max: 60 }), stale: fc.boolean() }),
  fc.record({ op: fc.constant('getMany' as const), keys: fc.array(fc.integer({ min: 0, max: 9 }), { maxLength: 6 }) }),
  fc.record({ op: fc.constant('setMany' as const), stale: fc.boolean(),
    entries: fc.array(fc.record({ key: fc.integer({ min: 0, max: 9 }), bytes: fc.integer({ min: 1, max: 60 }) }), { maxLength: 6 }) }),
  fc.record({ op: fc.constant('write' as const) }),
), { maxLength: 200 });

describe('ItemCache', () => {
  it('never serves a value from before a write, never holds more than its bound, and keeps the most recent values', () => {
    fc.assert(fc.property(ops, fc.integer({ min: 0, max: 200 }), (script: Op[], maxBytes) => {
      const generation = new WriteGeneration();
      const cache = new ItemCache<number, string>(generation, maxBytes);
      // The model: values set at the current generation, in least-recently-used order.
      let model: { key: number; value: string; bytes: number }[] = [];
      let serial = 0;
      for (const step of script) {
        if (step.op === 'write') {
          generation.bump();
          model = [];
        } else if (step.op === 'set' || step.op === 'setMany') {
          const readAt = step.stale ? cache.current() - 1 : cache.current();
          const entries = (step.op === 'set' ? [step] : step.entries).map((e) => ({ ...e, value: `v${serial++}` }));
          if (step.op === 'set') cache.set(step.key, entries[0]!.value, step.bytes, readAt);
          else cache.setMany(entries.map((e) => [e.key, e.value, e.bytes] as const), readAt);
          for (const e of entries) {
            if (step.stale || e.bytes > maxBytes) continue;
            model = model.filter((m) => m.key !== e.key).concat({ key: e.key, value: e.value, bytes: e.bytes });
            while (model.reduce((n, m) => n + m.bytes, 0) > maxBytes) model.shift();
          }
        } else {
          const keys = step.op === 'get' ? [step.key] : step.keys;
          const got = step.op === 'get' ? [cache.get(step.key)] : cache.getMany(keys);
          keys.forEach((key, k) => {
            const i = model.findIndex((e) => e.key === key);
            expect(got[k]).toBe(i < 0 ? undefined : model[i]!.value);
            if (i >= 0) model.push(...model.splice(i, 1));
          });
        }
        expect(cache.heldBytes).toBeLessThanOrEqual(maxBytes);
        expect(cache.heldBytes).toBe(model.reduce((n, e) => n + e.bytes, 0));
        expect(cache.size).toBe(model.length);
      }
    }));
  });

  it('drops everything when another connection committed (the store signal moved)', () => {
    let external = 7;
    const generation = new WriteGeneration({ read: () => external });
    const cache = new ItemCache<number, string>(generation, 1000);
    cache.set(1, 'a', 10, cache.current());
    expect(cache.get(1)).toBe('a');
    external++;
    expect(cache.get(1)).toBeUndefined();
  });
});
