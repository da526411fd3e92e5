import { buildSync } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

/** `fd`: the shard text opened by the caller (an index kind may unlink the file before the thread reads it). */
export interface CountJob {
  readonly id: number;
  readonly fd: number;
  readonly outPath: string;
  readonly floor: number;
}
export interface WordCountsWritten {
  readonly bytes: number;
  readonly sha256: string;
  readonly tokens: number;
  readonly types: number;
  /** Wall time of the counting and writing on the thread. */
  readonly countMs: number;
}
export type CountReply =
  ({ readonly id: number } & WordCountsWritten) | { readonly id: number; readonly error: string };

/** A thread that writes word-count tables, one shard at a time, in the order asked. */
export interface WordCountThread {
  count(fd: number, outPath: string, floor: number): Promise<WordCountsWritten>;
  close(): Promise<void>;
}

let bundled: string | undefined;

/**
 * The thread's code: thread-entry.ts with the one word segmenter (words/segment.ts) bundled in by esbuild (about
 * 50 ms, once per process), because a worker thread of Node 20 does not inherit the tsx loader of the main thread.
 */
function threadSource(): string {
  if (bundled !== undefined) return bundled;
  const out = buildSync({
    entryPoints: [fileURLToPath(new URL('./thread-entry.ts', import.meta.url))],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    write: false,
    logLevel: 'silent',
  });
  bundled = out.outputFiles[0]?.text;
  if (bundled === undefined) throw new Error('esbuild produced no code for the word-count thread');
  return bundled;
}

/**
 * Starts the thread. Segmenting runs at 1–2 MB/s (Intl.Segmenter), so it runs beside the reader and the sorts.
 * @example const t = startWordCountThread(); await t.count(openSync('shard/text.bin', 'r'), 'words/2019-03.nwc', 1); await t.close();
 */
export function startWordCountThread(): WordCountThread {
  const worker = new Worker(threadSource(), { eval: true });
  const pending = new Map<number, { resolve: (w: WordCountsWritten) => void; reject: (e: Error) => void }>();
  let next = 0;
  const failAll = (e: Error): void => {
    for (const p of pending.values()) p.reject(e);
    pending.clear();
  };
  worker.on('message', (r: CountReply) => {
    const p = pending.get(r.id);
    if (p === undefined) return;
    pending.delete(r.id);
    if ('error' in r) p.reject(new Error(`word counts: ${r.error}`));
    else p.resolve({ bytes: r.bytes, sha256: r.sha256, tokens: r.tokens, types: r.types, countMs: r.countMs });
  });
  worker.on('error', failAll);
  worker.on('exit', () => failAll(new Error('the word-count thread stopped')));
  return {
    count(fd, outPath, floor) {
      const id = next++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker.postMessage({ id, fd, outPath, floor } satisfies CountJob);
      });
    },
    close: async () => {
      await worker.terminate();
    },
  };
}
