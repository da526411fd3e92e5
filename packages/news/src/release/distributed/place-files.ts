import { createWriteStream } from 'node:fs';
import { lstat, link, mkdir, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { ReleaseVerificationError } from '../errors.ts';
import { digestHandle, openNoFollow } from '../file-digest.ts';

/** One file of a part to put into the assembled release. */
export interface FileToPlace {
  readonly from: string;
  readonly to: string;
  readonly bytes: number;
  /** The sha256 the part's manifest records: checked on the opened file before it is placed. */
  readonly sha256: string;
  /** The part folder it comes from, and the file's path inside it, for notices and refusals. */
  readonly part: string;
  readonly rel: string;
}

export interface PlaceProgress {
  readonly filesDone: number;
  readonly filesTotal: number;
  readonly bytesDone: number;
  readonly bytesTotal: number;
  /** Bytes read and hashed so far (every file is verified; this moves inside a file of several GB). */
  readonly bytesVerified: number;
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
 * Places every file: opens it without following links, checks its sha256 against the manifest, then hard-links it
 * (a directory entry per file, whatever the data size) and checks that the link names the very inode that was
 * hashed; where the part lies on another file system it copies from the verified open file instead (with a notice).
 */
export async function placeFiles(files: readonly FileToPlace[], options: PlaceOptions = {}): Promise<PlaceProgress> {
  const bytesTotal = files.reduce((n, f) => n + f.bytes, 0);
  const progress = {
    filesDone: 0,
    filesTotal: files.length,
    bytesDone: 0,
    bytesTotal,
    bytesVerified: 0,
    copiedBytes: 0,
  };
  const copying = new Set<string>();
  const made = new Set<string>();
  const placeOne = async (f: FileToPlace): Promise<void> => {
    const handle = await openNoFollow(f.from).catch((e: NodeJS.ErrnoException) => {
      throw e.code === 'ELOOP'
        ? new ReleaseVerificationError(
            'file_corrupt',
            `part ${f.part}: ${f.rel} became a symbolic link during assembly; run news release assemble again on parts nothing else writes`,
          )
        : e;
    });
    try {
      const opened = await handle.stat();
      const { sha256 } = await digestHandle(handle, (n) => {
        if (options.signal?.aborted) throw options.signal.reason;
        progress.bytesVerified += n;
        options.onProgress?.({ ...progress });
      });
      if (sha256 !== f.sha256) {
        throw new ReleaseVerificationError(
          'file_corrupt',
          `part ${f.part}: ${f.rel} does not match its sha256 in the part's manifest (corrupted); rebuild that part or copy it again`,
        );
      }
      const refused = copying.has(f.part)
        ? undefined
        : await link(f.from, f.to).then(
            () => null,
            (e: NodeJS.ErrnoException) => {
              if (e.code && CANNOT_LINK.has(e.code)) return e.code;
              throw e;
            },
          );
      if (refused === null) {
        const placed = await lstat(f.to);
        if (placed.ino !== opened.ino || placed.dev !== opened.dev) {
          throw new ReleaseVerificationError(
            'file_corrupt',
            `part ${f.part}: ${f.rel} was replaced during assembly; run news release assemble again on parts nothing else writes`,
          );
        }
      } else {
        if (refused !== undefined && !copying.has(f.part)) {
          copying.add(f.part);
          options.onNotice?.(
            `part ${f.part} cannot be hard-linked into the release (${refused === 'EXDEV' ? 'another file system' : refused}); copying its files instead`,
          );
        }
        await copyFrom(handle, f.to);
        progress.copiedBytes += f.bytes;
      }
    } finally {
      await handle.close();
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

/** Copies the open (verified) file, not its path, so what is copied is what was hashed. */
async function copyFrom(handle: FileHandle, to: string): Promise<void> {
  await pipeline(handle.createReadStream({ start: 0, autoClose: false }), createWriteStream(to, { flags: 'wx' }));
}
