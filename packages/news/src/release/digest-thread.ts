import { Worker } from 'node:worker_threads';

/** sha256 of files on a thread of their own: the background check then takes no time from the thread that answers requests. */
export interface DigestThread {
  digest(path: string, onBytes?: (bytes: number) => void): Promise<{ bytes: number; sha256: string }>;
  /** Stops the thread at once (a digest under way rejects). */
  close(): Promise<void>;
}

/**
 * The thread's code, plain CommonJS evaluated as is: the CLI runs TypeScript through tsx's loader on the main thread
 * only, so the thread must not import a .ts file. Reads 1 MiB at a time, reports progress every 16 MiB.
 */
const THREAD_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { openSync, readSync, closeSync } = require('node:fs');
const { createHash } = require('node:crypto');
const buffer = Buffer.allocUnsafe(1 << 20);
parentPort.on('message', ({ id, path }) => {
  let fd;
  try {
    fd = openSync(path, 'r');
    const hash = createHash('sha256');
    let bytes = 0;
    let unreported = 0;
    for (;;) {
      const n = readSync(fd, buffer, 0, buffer.length, bytes);
      if (n === 0) break;
      hash.update(buffer.subarray(0, n));
      bytes += n;
      unreported += n;
      if (unreported >= 16 << 20) { parentPort.postMessage({ id, progress: unreported }); unreported = 0; }
    }
    parentPort.postMessage({ id, progress: unreported, bytes, sha256: hash.digest('hex') });
  } catch (e) {
    parentPort.postMessage({ id, error: { code: e.code, message: e.message } });
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
});
`;

type Reply =
  | { readonly id: number; readonly progress: number; readonly bytes?: number; readonly sha256?: string }
  | { readonly id: number; readonly error: { readonly code?: string; readonly message: string } };

interface Pending {
  readonly resolve: (v: { bytes: number; sha256: string }) => void;
  readonly reject: (e: Error) => void;
  readonly onBytes?: ((bytes: number) => void) | undefined;
}

/**
 * Starts the thread. One file at a time is enough: a single sha256 stream already keeps one core busy.
 * @example const t = startDigestThread(); const { sha256 } = await t.digest('release/indexes/news/shards/2019-01/sa.u32'); await t.close();
 */
export function startDigestThread(): DigestThread {
  const worker = new Worker(THREAD_SOURCE, { eval: true });
  const pending = new Map<number, Pending>();
  let next = 0;
  const failAll = (e: Error): void => {
    for (const p of pending.values()) p.reject(e);
    pending.clear();
  };
  worker.on('message', (r: Reply) => {
    const p = pending.get(r.id);
    if (p === undefined) return;
    if ('error' in r) {
      pending.delete(r.id);
      p.reject(Object.assign(new Error(r.error.message), { code: r.error.code }));
      return;
    }
    if (r.progress > 0) p.onBytes?.(r.progress);
    if (r.sha256 !== undefined && r.bytes !== undefined) {
      pending.delete(r.id);
      p.resolve({ bytes: r.bytes, sha256: r.sha256 });
    }
  });
  worker.on('error', failAll);
  worker.on('exit', () => failAll(new Error('the digest thread stopped')));
  return {
    digest(path, onBytes) {
      const id = next++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject, onBytes });
        worker.postMessage({ id, path });
      });
    },
    close: async () => {
      await worker.terminate();
    },
  };
}
