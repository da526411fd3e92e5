import { createHash, type Hash } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';

/**
 * Every whole-buffer hash and write goes through here in slices of at most this many bytes. Node refuses a single
 * `Hash.update` or `write` of 2^31 bytes or more, and a shard's suffix array is 4 × its text: one call would die
 * only after the whole sort (issue 10). 64 MiB keeps the call count small and far from that limit.
 */
export const IO_CHUNK_BYTES = 64 << 20;

function checkChunk(chunkBytes: number): void {
  if (!Number.isInteger(chunkBytes) || chunkBytes < 1)
    throw new RangeError(`chunk size must be a positive integer, got ${chunkBytes}`);
}

function updateChunked(hash: Hash, bytes: Uint8Array, chunkBytes: number): Hash {
  for (let at = 0; at < bytes.length; at += chunkBytes)
    hash.update(bytes.subarray(at, Math.min(bytes.length, at + chunkBytes)));
  return hash;
}

/**
 * SHA-256 (hex) of a buffer of any size, fed to the hash in slices of `chunkBytes`.
 * @example sha256Chunked(Buffer.from('abc'), 1) // 'ba7816bf…' (same digest as one update)
 */
export function sha256Chunked(bytes: Uint8Array, chunkBytes: number = IO_CHUNK_BYTES): string {
  return sha256ChunkedParts([bytes], chunkBytes);
}

/** SHA-256 (hex) of the concatenation of `parts` (a file written from several buffers), in slices of `chunkBytes`. */
export function sha256ChunkedParts(parts: readonly Uint8Array[], chunkBytes: number = IO_CHUNK_BYTES): string {
  checkChunk(chunkBytes);
  const hash = createHash('sha256');
  for (const part of parts) updateChunked(hash, part, chunkBytes);
  return hash.digest('hex');
}

/**
 * Writes `bytes` to `file` through `file.tmp` + rename (so a complete file or none), in slices of `chunkBytes`,
 * and returns its SHA-256. Each slice is hashed on the main thread while the previous one is being written on the
 * thread pool. On failure the temp file is removed and the error is thrown: no write is left running.
 * @example const sha = await writeAndHash('/tmp/sa.u32', sa);
 */
export async function writeAndHash(
  file: string,
  bytes: Uint8Array,
  chunkBytes: number = IO_CHUNK_BYTES,
): Promise<string> {
  checkChunk(chunkBytes);
  const tmp = `${file}.tmp`;
  const hash = createHash('sha256');
  const handle = await open(tmp, 'w');
  try {
    for (let at = 0; at < bytes.length; at += chunkBytes) {
      const slice = bytes.subarray(at, Math.min(bytes.length, at + chunkBytes));
      const writing = writeFully(handle, slice);
      let hashError: unknown;
      try {
        hash.update(slice);
      } catch (e) {
        hashError = e;
      }
      await writing; // always awaited, even when hashing failed, so nothing keeps writing into a folder being removed
      if (hashError !== undefined) throw hashError;
    }
    await handle.close();
  } catch (e) {
    await handle.close().catch(() => {});
    await rm(tmp, { force: true });
    throw e;
  }
  await rename(tmp, file);
  return hash.digest('hex');
}

async function writeFully(handle: Awaited<ReturnType<typeof open>>, slice: Uint8Array): Promise<void> {
  for (let done = 0; done < slice.length;) {
    const { bytesWritten } = await handle.write(slice, done, slice.length - done);
    done += bytesWritten;
  }
}
