import { availableParallelism } from 'node:os';
import { startDigestThread } from './digest-thread.ts';

/** A file of a release with the size and sha256 its manifest records. */
export interface RecordedFile {
  readonly path: string;
  readonly rel: string;
  readonly bytes: number;
  readonly sha256: string;
}

/** The first file whose bytes are not what the manifest records, or a file that could not be read. */
export type DigestMismatch =
  | { readonly rel: string; readonly reason: 'sha256' }
  | { readonly rel: string; readonly reason: 'unreadable'; readonly message: string };

/**
 * sha256 of every file, each read once, on `threads` digest threads at a time (largest first, so the biggest file
 * starts at once and the small ones fill the other thread). One sha256 stream keeps one core busy, so on a 2-core
 * machine two threads halve the `--verify full` start of a release whose suffix array is most of its bytes (issue 24).
 * Stops at the first mismatch, or when `signal` aborts. Resolves to the mismatch, or `null` when every file matches
 * (never rejects: an unreadable file is a mismatch).
 * @example await firstDigestMismatch([{ path: '/r/x/sa.u32', rel: 'x/sa.u32', bytes: 4, sha256: '…' }])
 */
export async function firstDigestMismatch(
  files: readonly RecordedFile[],
  threads = Math.min(2, availableParallelism()),
  signal?: AbortSignal,
): Promise<DigestMismatch | null> {
  const queue = [...files].sort((a, b) => b.bytes - a.bytes);
  let mismatch: DigestMismatch | null = null;
  const run = async (): Promise<void> => {
    const thread = startDigestThread();
    // Aborted (the open failed for another reason): the thread stops at once, its digest rejects, the loop ends.
    const stop = (): void => {
      queue.length = 0;
      void thread.close();
    };
    signal?.addEventListener('abort', stop, { once: true });
    try {
      for (let f = queue.shift(); f !== undefined && mismatch === null; f = queue.shift()) {
        try {
          const { sha256 } = await thread.digest(f.path);
          if (sha256 !== f.sha256) mismatch ??= { rel: f.rel, reason: 'sha256' };
        } catch (e) {
          mismatch ??= { rel: f.rel, reason: 'unreadable', message: (e as Error).message };
        }
      }
    } finally {
      signal?.removeEventListener('abort', stop);
      await thread.close();
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(threads, queue.length)) }, run));
  return mismatch;
}
