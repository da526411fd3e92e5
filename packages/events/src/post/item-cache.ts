import type { WriteGeneration } from './write.ts';

/** The share of the bytes kept for items read again while cached (the protected segment). */
const PROTECTED_SHARE = 0.8;

interface Entry<V> {
  value: V;
  bytes: number;
}

/**
 * Items read and built from the store, kept until the next committed change: the plugin caches each built item
 * until any post is saved (compat §0.7), and a change anywhere may show in an item (a venue's name in its events).
 * Bounded by an estimate of the bytes held, as a segmented LRU: an item enters on probation and is protected once
 * read again while cached, so one pass over many items read once (a crawler, an export) evicts only other items on
 * probation, never the protected hot set (at most 80% of the bytes; its least recently used go back to probation).
 * A value read under an older generation than the current one is never stored.
 */
export class ItemCache<K, V> {
  // Map order is insertion order: re-inserting a key makes the first key of each map its least recently used.
  private readonly probation = new Map<K, Entry<V>>();
  private readonly protected = new Map<K, Entry<V>>();
  private probationBytes = 0;
  private protectedBytes = 0;
  private readonly protectedMax: number;
  private gen: number;

  constructor(
    private readonly generation: WriteGeneration,
    readonly maxBytes: number,
  ) {
    this.gen = generation.value;
    this.protectedMax = Math.floor(maxBytes * PROTECTED_SHARE);
  }

  /** The generation a value about to be read belongs to; hand it back to `set`. */
  current(): number {
    const g = this.generation.value;
    if (g !== this.gen) {
      this.probation.clear();
      this.protected.clear();
      this.probationBytes = 0;
      this.protectedBytes = 0;
      this.gen = g;
    }
    return g;
  }

  get(key: K): V | undefined {
    this.current();
    return this.touch(key);
  }

  /**
   * `get` without the generation check, for a value tied to something this request already read with `get` (the
   * body kept beside a cached row): it is then exactly as current as that read, and the check would cost a second
   * read of the store's change signal. A value from a generation since past is still returned: the caller must check
   * that it belongs to what it read.
   */
  peek(key: K): V | undefined {
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
    const hot = this.protected.get(key);
    if (hot !== undefined) {
      this.protected.delete(key);
      this.protected.set(key, hot);
      return hot.value;
    }
    const e = this.probation.get(key);
    if (e === undefined) return undefined;
    this.probation.delete(key);
    this.probationBytes -= e.bytes;
    this.protected.set(key, e);
    this.protectedBytes += e.bytes;
    this.demote();
    return e.value;
  }

  private store(key: K, value: V, bytes: number): void {
    if (bytes > this.maxBytes) return;
    const hot = this.protected.get(key);
    if (hot !== undefined) {
      this.protected.delete(key);
      this.protected.set(key, { value, bytes });
      this.protectedBytes += bytes - hot.bytes;
      this.demote();
    } else {
      const old = this.probation.get(key);
      if (old !== undefined) {
        this.probation.delete(key);
        this.probationBytes -= old.bytes;
      }
      this.probation.set(key, { value, bytes });
      this.probationBytes += bytes;
    }
    this.evict(key);
  }

  /** Moves the protected segment's least recently used items back to probation (as its most recent) while over its share. */
  private demote(): void {
    for (const [k, e] of this.protected) {
      if (this.protectedBytes <= this.protectedMax) break;
      this.protected.delete(k);
      this.protectedBytes -= e.bytes;
      this.probation.set(k, e);
      this.probationBytes += e.bytes;
    }
  }

  /** Drops least recently used items on probation, then protected ones, until within the bound; `kept` goes last. */
  private evict(kept: K): void {
    while (this.probationBytes + this.protectedBytes > this.maxBytes) {
      const [first] = this.probation;
      const fromProbation = first !== undefined && (first[0] !== kept || this.protected.size === 0);
      const [k, e] = fromProbation ? first : this.protected.entries().next().value!;
      if (fromProbation) {
        this.probation.delete(k);
        this.probationBytes -= e.bytes;
      } else {
        this.protected.delete(k);
        this.protectedBytes -= e.bytes;
      }
    }
  }

  get size(): number {
    this.current();
    return this.probation.size + this.protected.size;
  }

  get heldBytes(): number {
    this.current();
    return this.probationBytes + this.protectedBytes;
  }
}
