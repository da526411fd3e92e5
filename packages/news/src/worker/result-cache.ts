/**
 * A small LRU of count/find results. A release never changes while a worker serves it, so a cached answer is
 * always the right one; popular phrases are asked again and again, and a count over a release with many monthly
 * shards costs one binary search pair per shard.
 */
export class ResultCache<V> {
  private readonly entries = new Map<string, V>();

  constructor(readonly capacity: number) {}

  get(key: string): V | undefined {
    const v = this.entries.get(key);
    if (v !== undefined) {
      // Re-insert: Map keeps insertion order, so the first key is always the least recently used.
      this.entries.delete(key);
      this.entries.set(key, v);
    }
    return v;
  }

  set(key: string, value: V): void {
    if (this.capacity <= 0) return;
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next();
      if (oldest.done !== true) this.entries.delete(oldest.value);
    }
  }

  get size(): number {
    return this.entries.size;
  }
}
