import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { sha256Chunked, writeAndHash } from './chunked-io.ts';

const dir = mkdtempSync(join(tmpdir(), 'chunked-io-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const oneShot = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

describe('chunked hashing and writing (bounded calls whatever the buffer size)', () => {
  it('sha256Chunked equals one update for every chunk size, including sizes that do not divide the length', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.integer({ min: 1, max: 64 }), (bytes, chunk) => {
        expect(sha256Chunked(bytes, chunk)).toBe(oneShot(bytes));
      }),
    );
  });

  it('writeAndHash writes the exact bytes and returns their digest with a 1..7-byte chunk size', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 200 }), fc.integer({ min: 1, max: 7 }), async (bytes, chunk) => {
        const file = join(dir, 'out.bin');
        const digest = await writeAndHash(file, bytes, chunk);
        expect(digest).toBe(oneShot(bytes));
        expect(Buffer.compare(readFileSync(file), Buffer.from(bytes))).toBe(0);
        expect(existsSync(`${file}.tmp`)).toBe(false);
      }),
      { numRuns: 40 },
    );
  });

  it('a failed write rejects, leaves no temp file and no running write', async () => {
    await expect(writeAndHash(join(dir, 'missing-folder', 'x.bin'), Buffer.alloc(10), 3)).rejects.toThrow(/ENOENT/);
    expect(existsSync(join(dir, 'missing-folder'))).toBe(false);
  });

  it('refuses a chunk size that is not a positive integer', () => {
    expect(() => sha256Chunked(Buffer.alloc(1), 0)).toThrow(/positive integer/);
  });
});
