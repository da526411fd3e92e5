import { closeSync, mkdirSync, openSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { ShardTooLargeError } from './errors.ts';
import { FILES, MAX_SHARD_TEXT_BYTES, SEPARATOR } from './format.ts';
import type { ShardWriter } from './types.ts';

/**
 * Writes are batched through a buffer of this size: few syscalls, bounded RAM whatever the shard size. A monthly
 * build keeps every month's writer open (two files each), so 64 KiB, not 1 MiB: with 83 shards open, 1 MiB buffers
 * alone took ~166 MB of the build's peak RSS, while 64 KiB costs ~700 writes per 45 MB, which is nothing.
 */
const FLUSH_BYTES = 64 << 10;

/** Appends articles to one file, batching small writes. */
class BufferedFile {
  private readonly fd: number;
  private readonly buf = Buffer.allocUnsafe(FLUSH_BYTES);
  private used = 0;

  constructor(readonly file: string) {
    this.fd = openSync(file, 'w');
  }

  write(bytes: Uint8Array): void {
    if (this.used + bytes.length > this.buf.length) this.flush();
    if (bytes.length >= this.buf.length) {
      writeAll(this.fd, bytes);
      return;
    }
    this.buf.set(bytes, this.used);
    this.used += bytes.length;
  }

  flush(): void {
    if (this.used > 0) writeAll(this.fd, this.buf.subarray(0, this.used));
    this.used = 0;
  }

  close(): void {
    this.flush();
    closeSync(this.fd);
  }
}

function writeAll(fd: number, bytes: Uint8Array): void {
  for (let done = 0; done < bytes.length;) done += writeSync(fd, bytes, done, bytes.length - done);
}

/**
 * Starts a shard in `dir` (created if needed; an earlier shard there is replaced): streams each article's
 * bytes, preceded by the 0xFF separator, to the text file and its separator position to the offset table.
 * Then `await writer.finish()` and index it with its kind (`indexKind(name).index(dir)`, or `indexShard(dir)` for the SA kind).
 *
 * @example
 *   const w = createShardWriter('/tmp/shard');
 *   w.append(Buffer.from('first article')); // 0
 *   await w.finish();
 */
export function createShardWriter(dir: string): ShardWriter {
  mkdirSync(dir, { recursive: true });
  // The header marks a complete shard of any kind: drop it before the text changes (the indexer replaces the rest).
  rmSync(path.join(dir, FILES.header), { force: true });
  const text = new BufferedFile(path.join(dir, FILES.text));
  const offsets = new BufferedFile(path.join(dir, FILES.docOffsets));
  const sep = Uint8Array.of(SEPARATOR);
  const entry = Buffer.alloc(8);
  let textBytes = 0;
  let docCount = 0;
  let finished = false;

  return {
    append(doc: Uint8Array): number {
      if (finished) throw new Error(`shard writer for ${dir} is already finished`);
      const after = textBytes + 1 + doc.length;
      if (after > MAX_SHARD_TEXT_BYTES) throw new ShardTooLargeError(dir, after, MAX_SHARD_TEXT_BYTES);
      const view = Buffer.from(doc.buffer, doc.byteOffset, doc.length);
      if (view.indexOf(SEPARATOR) !== -1) {
        throw new RangeError(
          `article ${docCount} of shard ${dir} contains byte 0xFF, which is not UTF-8 (it separates articles)`,
        );
      }
      entry.writeBigUInt64LE(BigInt(textBytes));
      offsets.write(entry);
      text.write(sep);
      text.write(view);
      textBytes = after;
      return docCount++;
    },
    get textBytes() {
      return textBytes;
    },
    get docCount() {
      return docCount;
    },
    async finish(): Promise<void> {
      if (finished) return;
      finished = true;
      text.close();
      offsets.close();
    },
  };
}
