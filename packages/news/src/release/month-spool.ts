import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import { rm } from 'node:fs/promises';

const BUFFER_BYTES = 1 << 20;

/**
 * A spool of one crawl month's article texts for yearly shards: records are `u32 LE length + bytes`. Yearly shards
 * must hold their articles in (month, input order) like doc_ix, but input arrives in input order, so each month is
 * spooled to disk and the year's shard is written from the spools in month order. Memory: one buffer per month.
 */
export class MonthSpool {
  private fd: number;
  private readonly buf = Buffer.allocUnsafe(BUFFER_BYTES);
  private used = 0;
  count = 0;

  constructor(readonly path: string) {
    this.fd = openSync(path, 'w');
  }

  append(bytes: Uint8Array): void {
    if (this.used + 4 + bytes.length > this.buf.length) this.flush();
    if (4 + bytes.length > this.buf.length) {
      const len = Buffer.allocUnsafe(4);
      len.writeUInt32LE(bytes.length);
      writeAll(this.fd, len);
      writeAll(this.fd, bytes);
    } else {
      this.buf.writeUInt32LE(bytes.length, this.used);
      this.buf.set(bytes, this.used + 4);
      this.used += 4 + bytes.length;
    }
    this.count++;
  }

  private flush(): void {
    writeAll(this.fd, this.buf.subarray(0, this.used));
    this.used = 0;
  }

  /** Closes the spool for writing and yields its texts in order; the file is removed afterwards. */
  async *drain(): AsyncGenerator<Buffer> {
    this.flush();
    closeSync(this.fd);
    this.fd = openSync(this.path, 'r');
    try {
      let chunk = Buffer.alloc(0);
      let position = 0;
      const readMore = (need: number): boolean => {
        while (chunk.length < need) {
          const next = Buffer.allocUnsafe(Math.max(BUFFER_BYTES, need - chunk.length));
          const n = readSync(this.fd, next, 0, next.length, position);
          if (n === 0) return false;
          position += n;
          chunk = Buffer.concat([chunk, next.subarray(0, n)]);
        }
        return true;
      };
      for (let i = 0; i < this.count; i++) {
        if (!readMore(4)) throw new Error(`spool ${this.path} ended early`);
        const len = chunk.readUInt32LE(0);
        if (!readMore(4 + len)) throw new Error(`spool ${this.path} ended early`);
        yield chunk.subarray(4, 4 + len);
        chunk = chunk.subarray(4 + len);
      }
    } finally {
      closeSync(this.fd);
      await rm(this.path, { force: true });
    }
  }

  close(): void {
    try {
      closeSync(this.fd);
    } catch {
      // already closed
    }
  }
}

function writeAll(fd: number, bytes: Uint8Array): void {
  for (let off = 0; off < bytes.length;) off += writeSync(fd, bytes, off, bytes.length - off);
}
