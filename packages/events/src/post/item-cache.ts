import type { WriteGeneration } from './write.ts';

/**
 * Items read and built from the store, kept until the next committed change: the plugin caches each built item
 * until any post is saved (compat §0.7), and a change anywhere may show in an item (a venue's name in its events).
 * Bounded by an estimate of the bytes held, least recently used dropped first; a value read under an older
 * generation than the current one is never stored.
 */
export class ItemCache<K, V> {
  private readonly entries = new Map<K, { value: V; bytes: number }>();
  private bytes = 0;
  private gen: number;

  constructor(
    private readonly generation: WriteGeneration,
    readonly maxBytes: number,
  ) {
    this.gen = generation.value;
  }

  /** The generation a value about to be read belongs to; hand it back to `set`. */
  current(): number {
    const g = this.generation.value;
    if (g !== this.gen) {
      this.entries.clear();
      this.bytes = 0;
      this.gen = g;
    }
    return g;
  }

  get(key: K): V | undefined {
    this.current();
    return this.touch(key);
  }

  /** `get` for many keys with one generation check (reading the store's change signal costs a few µs a time). */
  getMany(keys: readonly K[]): (V | undefined)[] {
    this.current();
    return keys.map((k) => this.touch(k));
  }

  /** Stores `value` when nothing was written since `readAt`; `bytes` is its estimated size. */
  set(key: K, value: V, bytes: number, readAt: number): void {
    if (readAt === this.current()) this.store(key, value, bytes);
  }

  /** `set` for many entries with one generation check. */
  setMany(entries: readonly (readonly [K, V, number])[], readAt: number): void {
    if (readAt !== this.current()) return;
    for (const [key, value, bytes] of entries) this.store(key, value, bytes);
  }

  private touch(key: K): V | undefined {
    const e = this.entries.get(key);
    if (e === undefined) return undefined;
    // Map order is insertion order: re-inserting makes the first key the least recently used.
    this.entries.delete(key);
    this.entries.set(key, e);
    return e.value;
  }

  private store(key: K, value: V, bytes: number): void {
    if (bytes > this.maxBytes) return;
    const old = this.entries.get(key);
    if (old !== undefined) {
      this.bytes -= old.bytes;
      this.entries.delete(key);
    }
    this.entries.set(key, { value, bytes });
    this.bytes += bytes;
    for (const [k, e] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(k);
      this.bytes -= e.bytes;
    }
  }

  get size(): number {
    this.current();
    return this.entries.size;
  }

  get heldBytes(): number {
    this.current();
    return this.bytes;
  }
}
