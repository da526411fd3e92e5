import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { resolveRel, wordCountsRelPath } from '../layout.ts';
import { startWordCountThread, type WordCountThread } from './word-count-thread.ts';

/**
 * Words counted fewer times than this in a shard are left out of its table. 1 (every word): sums over shards, rare
 * words in keyness and types stay exact, and the tables still measure ≤ 0.014 bytes per text byte on the real
 * corpora (release/DESIGN.md); the format takes any floor should a corpus need a smaller table.
 */
export const WORD_COUNT_FLOOR = 1;

/** A shard's table as the index manifest records it. */
export interface WordCountsEntry {
  readonly file: string;
  readonly bytes: number;
  readonly sha256: string;
  readonly tokens: number;
  readonly types: number;
}

/**
 * Writes every shard's word-count table on `threads` threads while the build reads and sorts (segmenting is the slow
 * part: 1–2 MB/s, slower than reading and sorting together), each shard to the thread with the fewest queued.
 * `start` as soon as a part's text is final; `finish` waits for all.
 */
export class ShardWordTables {
  private readonly pool: { thread: WordCountThread; queued: number }[] = [];
  private readonly jobs = new Map<string, Promise<WordCountsEntry>>();

  constructor(
    private readonly root: string,
    private readonly indexName: string,
    private readonly threads: number,
    /** Each table's counting time on its thread (ms), for the build's stage times. */
    private readonly onCounted: (ms: number) => void = () => {},
  ) {}

  private idlest(): { thread: WordCountThread; queued: number } {
    const free = this.pool.find((t) => t.queued === 0);
    if (free !== undefined) return free;
    if (this.pool.length < this.threads) {
      const t = { thread: startWordCountThread(), queued: 0 };
      this.pool.push(t);
      return t;
    }
    return this.pool.reduce((a, b) => (b.queued < a.queued ? b : a));
  }

  /** Queues the shard whose text is `<root>/<relDir>/text.bin`, final under its id `shardId`. */
  start(shardId: string, relDir: string): void {
    if (this.jobs.has(shardId)) return;
    const file = wordCountsRelPath(this.indexName, shardId);
    const out = resolveRel(this.root, file);
    mkdirSync(dirname(out), { recursive: true });
    // Opened now: the compressed kind removes text.bin once its index is built, maybe before the thread gets to it.
    const fd = openSync(join(resolveRel(this.root, relDir), 'text.bin'), 'r');
    const slot = this.idlest();
    slot.queued++;
    const job = slot.thread
      .count(fd, out, WORD_COUNT_FLOOR)
      .then(({ countMs, ...w }) => {
        this.onCounted(countMs);
        return { file, ...w };
      })
      .finally(() => {
        slot.queued--;
        closeSync(fd);
      });
    // A failure is reported by `finish`; until then it must not be an unhandled rejection.
    job.catch(() => {});
    this.jobs.set(shardId, job);
  }

  /** Every table, by shard id, once all are written. */
  async finish(): Promise<Map<string, WordCountsEntry>> {
    const out = new Map<string, WordCountsEntry>();
    try {
      for (const [id, job] of this.jobs) out.set(id, await job);
    } finally {
      await this.stop();
    }
    return out;
  }

  async stop(): Promise<void> {
    await Promise.all(this.pool.splice(0).map((t) => t.thread.close()));
  }
}
