import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { SignBatch, SignedBatch } from './sign-worker.ts';

/**
 * The CLI runs TypeScript through tsx's loader on the main thread only (as bin/news.js does), so the thread first
 * registers it, then imports sign-worker.ts.
 */
// require.resolve gives the export's `require` file (index.cjs); the thread imports its `import` twin beside it.
const TSX_API = pathToFileURL(
  createRequire(import.meta.url)
    .resolve('tsx/esm/api')
    .replace(/\.cjs$/, '.mjs'),
).href;
const WORKER_MODULE = new URL('./sign-worker.ts', import.meta.url).href;
const THREAD_SOURCE = `import(${JSON.stringify(TSX_API)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(WORKER_MODULE)}); });`;
const BATCH_BYTES = 4 << 20;
/** Batches queued at most (≈ 32 MiB of text): past that the reader waits, so memory stays bounded. */
const MAX_IN_FLIGHT = 8;

/**
 * Signs texts on a thread of its own: the builder's read loop keeps one core busy (gunzip, JSON, metadata), and
 * signing on it cost ~20 % of the build (measured); batched, the copies of the text cost a memcpy.
 * @example const t = new SignThread((first, sigs, signed) => …); await t.add(bytes); await t.finish(); t.close();
 */
export class SignThread {
  private readonly worker = new Worker(THREAD_SOURCE, { eval: true });
  private readonly pending = new Map<number, { first: number; resolve: () => void; reject: (e: Error) => void }>();
  /** Batches sent and not yet signed, oldest first. */
  private readonly inFlight: Promise<void>[] = [];
  private chunks: Uint8Array[] = [];
  private ends: number[] = [];
  private batchBytes = 0;
  private texts = 0;
  private nextId = 0;
  private failure: Error | undefined;

  /** `onSigned(first, signatures, signed)`: the batch of texts numbered from `first` (in add order) is signed. */
  constructor(private readonly onSigned: (first: number, signatures: Uint16Array, signed: Uint8Array) => void) {
    this.worker.on('message', (r: SignedBatch) => {
      const p = this.pending.get(r.id);
      if (!p) return;
      this.pending.delete(r.id);
      this.onSigned(p.first, r.signatures, r.signed);
      p.resolve();
    });
    const fail = (e: Error): void => {
      this.failure ??= e;
      for (const p of this.pending.values()) p.reject(e);
      this.pending.clear();
    };
    this.worker.on('error', fail);
    this.worker.on('exit', () => fail(new Error('the signing thread stopped')));
  }

  /** Queues one text; resolves at once unless too many batches are queued (then when one is signed). */
  add(bytes: Uint8Array): Promise<void> | undefined {
    if (this.failure) throw this.failure;
    this.chunks.push(bytes);
    this.batchBytes += bytes.length;
    this.ends.push(this.batchBytes);
    if (this.batchBytes < BATCH_BYTES) return undefined;
    this.send();
    return this.inFlight.length > MAX_IN_FLIGHT ? this.inFlight[0] : undefined;
  }

  /** Sends what is queued and waits until every text is signed. */
  async finish(): Promise<void> {
    if (this.failure) throw this.failure;
    if (this.ends.length > 0) this.send();
    await Promise.all(this.inFlight);
    if (this.failure) throw this.failure;
  }

  close(): void {
    void this.worker.terminate();
  }

  private send(): void {
    const buffer = new ArrayBuffer(this.batchBytes);
    const bytes = new Uint8Array(buffer);
    let at = 0;
    for (const c of this.chunks) {
      bytes.set(c, at);
      at += c.length;
    }
    const ends = Uint32Array.from(this.ends);
    const batch: SignBatch = { id: this.nextId++, bytes, ends };
    const first = this.texts;
    this.texts += this.ends.length;
    this.chunks = [];
    this.ends = [];
    this.batchBytes = 0;
    const done = new Promise<void>((resolve, reject) => this.pending.set(batch.id, { first, resolve, reject }));
    done.catch(() => {}); // a failure is reported by finish() or the next add()
    this.inFlight.push(done);
    // Batches are signed in order, so the oldest settles first.
    void done.finally(() => this.inFlight.shift()).catch(() => {});
    this.worker.postMessage(batch, [buffer, ends.buffer as ArrayBuffer]);
  }
}
