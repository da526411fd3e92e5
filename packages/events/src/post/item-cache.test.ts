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

const ops = fc.array(
  fc.oneof(
    fc.record({ op: fc.constant('get' as const), key: fc.integer({ min: 0, max: 9 }) }),
    fc.record({
      op: fc.constant('set' as const),
      key: fc.integer({ min: 0, max: 9 }),
      bytes: fc.integer({ min: 1, max: 60 }),
      stale: fc.boolean(),
    }),
    fc.record({
      op: fc.constant('getMany' as const),
      keys: fc.array(fc.integer({ min: 0, max: 9 }), { maxLength: 6 }),
    }),
    fc.record({
      op: fc.constant('setMany' as const),
      stale: fc.boolean(),
      entries: fc.array(fc.record({ key: fc.integer({ min: 0, max: 9 }), bytes: fc.integer({ min: 1, max: 60 }) }), {
        maxLength: 6,
      }),
    }),
    fc.record({ op: fc.constant('write' as const) }),
  ),
  { maxLength: 200 },
);

/** The reference: a segmented LRU over plain arrays (least recently used first), emptied by every write. */
class Model {
  probation: { key: number; value: string; bytes: number }[] = [];
  protected: { key: number; value: string; bytes: number }[] = [];
  constructor(private readonly maxBytes: number) {}
  private sum = (xs: { bytes: number }[]) => xs.reduce((n, x) => n + x.bytes, 0);
  get all() {
    return [...this.probation, ...this.protected];
  }
  clear() {
    this.probation = [];
    this.protected = [];
  }
  private demote() {
    while (this.sum(this.protected) > Math.floor(this.maxBytes * 0.8)) this.probation.push(this.protected.shift()!);
  }
  get(key: number): string | undefined {
    const p = this.protected.findIndex((e) => e.key === key);
    if (p >= 0) {
      const [e] = this.protected.splice(p, 1);
      this.protected.push(e!);
      return e!.value;
    }
    const i = this.probation.findIndex((e) => e.key === key);
    if (i < 0) return undefined;
    const [e] = this.probation.splice(i, 1);
    this.protected.push(e!);
    this.demote();
    return e!.value;
  }
  set(key: number, value: string, bytes: number) {
    if (bytes > this.maxBytes) return;
    const p = this.protected.findIndex((e) => e.key === key);
    if (p >= 0) {
      this.protected.splice(p, 1);
      this.protected.push({ key, value, bytes });
      this.demote();
    } else {
      this.probation = this.probation.filter((e) => e.key !== key).concat({ key, value, bytes });
    }
    while (this.sum(this.all) > this.maxBytes) {
      if (this.probation.length > 0 && (this.probation[0]!.key !== key || this.protected.length === 0))
        this.probation.shift();
      else this.protected.shift();
    }
  }
}

describe('ItemCache', () => {
  it('never serves a value from before a write, never holds more than its bound, and evicts as a segmented LRU', () => {
    fc.assert(
      fc.property(ops, fc.integer({ min: 0, max: 200 }), (script: Op[], maxBytes) => {
        const generation = new WriteGeneration();
        const cache = new ItemCache<number, string>(generation, maxBytes);
        const model = new Model(maxBytes);
        let serial = 0;
        for (const step of script) {
          if (step.op === 'write') {
            generation.bump();
            model.clear();
          } else if (step.op === 'set' || step.op === 'setMany') {
            const readAt = step.stale ? cache.current() - 1 : cache.current();
            const entries = (step.op === 'set' ? [step] : step.entries).map((e) => ({ ...e, value: `v${serial++}` }));
            if (step.op === 'set') cache.set(step.key, entries[0]!.value, step.bytes, readAt);
            else
              cache.setMany(
                entries.map((e) => [e.key, e.value, e.bytes] as const),
                readAt,
              );
            if (!step.stale) for (const e of entries) model.set(e.key, e.value, e.bytes);
          } else {
            const keys = step.op === 'get' ? [step.key] : step.keys;
            const got = step.op === 'get' ? [cache.get(step.key)] : cache.getMany(keys);
            keys.forEach((key, k) => expect(got[k]).toBe(model.get(key)));
          }
          expect(cache.heldBytes).toBeLessThanOrEqual(maxBytes);
          expect(cache.heldBytes).toBe(model.all.reduce((n, e) => n + e.bytes, 0));
          expect(cache.size).toBe(model.all.length);
        }
      }),
    );
  });

  it('keeps a hot set read twice through a scan of 10,000 items read once', () => {
    const cache = new ItemCache<number, string>(new WriteGeneration(), 1000 * 10);
    const hot = Array.from({ length: 100 }, (_, i) => -1 - i);
    for (const k of hot) cache.set(k, `hot${k}`, 10, cache.current());
    expect(cache.getMany(hot).every((v) => v !== undefined)).toBe(true);
    for (let id = 0; id < 10_000; id++) {
      expect(cache.get(id)).toBeUndefined();
      cache.set(id, `cold${id}`, 10, cache.current());
    }
    expect(cache.getMany(hot)).toEqual(hot.map((k) => `hot${k}`));
    // The scan's most recent items are on probation, in the room the hot set leaves.
    expect(cache.get(9_999)).toBe('cold9999');
    expect(cache.heldBytes).toBeLessThanOrEqual(10_000);
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

  it('peek reads a kept value without reading the store signal, and the next get still drops it after a commit', () => {
    let external = 7;
    let reads = 0;
    const cache = new ItemCache<number, string>(
      new WriteGeneration({
        read: () => {
          reads++;
          return external;
        },
      }),
      1000,
    );
    cache.set(1, 'a', 10, cache.current());
    expect(cache.get(1)).toBe('a');
    const before = reads;
    expect(cache.peek(1)).toBe('a');
    expect(cache.peek(2)).toBeUndefined();
    expect(reads).toBe(before);
    external++;
    expect(cache.get(1)).toBeUndefined();
    expect(cache.peek(1)).toBeUndefined();
  });
});
