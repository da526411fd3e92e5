import { constants } from 'node:fs';
import { createHash } from 'node:crypto';
import { open, type FileHandle } from 'node:fs/promises';

/** Read size per step: large enough that hashing, not the read calls, sets the pace; small enough to yield often. */
const CHUNK_BYTES = 1 << 20;

/** Size and streamed sha256 of a file. */
export async function digestFile(
  path: string,
  onBytes?: (bytes: number) => void,
): Promise<{ bytes: number; sha256: string }> {
  const handle = await open(path, 'r');
  try {
    return await digestHandle(handle, onBytes);
  } finally {
    await handle.close();
  }
}

/**
 * Size and sha256 of an open file, read from its start in 1 MiB steps (each an await, so other work interleaves);
 * `onBytes` hears each step's byte count (progress for parts of several GB).
 */
export async function digestHandle(
  handle: FileHandle,
  onBytes?: (bytes: number) => void,
): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash('sha256');
  const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  let bytes = 0;
  for (;;) {
    const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, bytes);
    if (bytesRead === 0) break;
    hash.update(buffer.subarray(0, bytesRead));
    bytes += bytesRead;
    onBytes?.(bytesRead);
  }
  return { bytes, sha256: hash.digest('hex') };
}

/**
 * Opens a file for reading without following a symbolic link in its last component (O_NOFOLLOW, where the platform
 * has it): a link swapped in after a check is refused by the kernel (ELOOP) instead of read.
 */
export const openNoFollow = (path: string): Promise<FileHandle> =>
  open(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
