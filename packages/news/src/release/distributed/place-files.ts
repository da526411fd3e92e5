import { copyFile, link, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';

/** One file of a part to put into the assembled release. */
export interface FileToPlace {
  readonly from: string;
  readonly to: string;
  readonly bytes: number;
  /** The part folder it comes from, for the copy notice. */
  readonly part: string;
}

export interface PlaceProgress {
  readonly filesDone: number;
  readonly filesTotal: number;
  readonly bytesDone: number;
  readonly bytesTotal: number;
  readonly copiedBytes: number;
}

export interface PlaceOptions {
  /** Said once per part whose files must be copied (another file system, or one without hard links). */
  readonly onNotice?: ((message: string) => void) | undefined;
  readonly onProgress?: ((p: PlaceProgress) => void) | undefined;
  readonly signal?: AbortSignal | undefined;
}

/** Errors of link(2) that mean "this pair of places cannot share an inode": copy instead. */
const CANNOT_LINK = new Set(['EXDEV', 'EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'EMLINK']);

/** Files placed at once: link(2) and copies run on the libuv pool, so a batch overlaps their latencies. */
const BATCH_FILES = 32;

/**
 * Hard-links every file into place, so assembling costs a directory entry per file whatever the data size; falls back
 * to copying (with a notice) where the part lies on another file system. Returns the bytes copied.
 */
export async function placeFiles(files: readonly FileToPlace[], options: PlaceOptions = {}): Promise<PlaceProgress> {
  const bytesTotal = files.reduce((n, f) => n + f.bytes, 0);
  const progress = { filesDone: 0, filesTotal: files.length, bytesDone: 0, bytesTotal, copiedBytes: 0 };
  const copying = new Set<string>();
  const made = new Set<string>();
  const placeOne = async (f: FileToPlace): Promise<void> => {
    const refused = copying.has(f.part) ? undefined : await link(f.from, f.to).then(() => null, (e: NodeJS.ErrnoException) => {
      if (e.code && CANNOT_LINK.has(e.code)) return e.code;
      throw e;
    });
    if (refused !== null) {
      if (refused !== undefined && !copying.has(f.part)) {
        copying.add(f.part);
        options.onNotice?.(`part ${f.part} cannot be hard-linked into the release (${refused === 'EXDEV' ? 'another file system' : refused}); copying its files instead`);
      }
      await copyFile(f.from, f.to);
      progress.copiedBytes += f.bytes;
    }
    progress.filesDone++;
    progress.bytesDone += f.bytes;
  };
  for (let i = 0; i < files.length; i += BATCH_FILES) {
    if (options.signal?.aborted) throw options.signal.reason;
    const batch = files.slice(i, i + BATCH_FILES);
    for (const dir of new Set(batch.map((f) => dirname(f.to)))) {
      if (!made.has(dir)) await mkdir(dir, { recursive: true });
      made.add(dir);
    }
    // allSettled: no link or copy may still be running into a folder the caller removes after a failure.
    const failed = (await Promise.allSettled(batch.map(placeOne))).find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
    options.onProgress?.({ ...progress });
  }
  return progress;
}
