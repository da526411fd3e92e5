import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { ShardFormatError } from './errors.ts';
import { forEachFileSlice, readFileArrayBuffer, readFileBuffer, readFileTyped } from './whole-file.ts';

const dir = mkdtempSync(join(tmpdir(), 'whole-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = join(dir, 'data.bin');

describe('reading a whole file in slices (no limit of one read)', () => {
  it('reads the exact bytes for every slice size, including sizes that do not divide the length', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.integer({ min: 1, max: 64 }), (bytes, chunkBytes) => {
        writeFileSync(file, bytes);
        const got = readFileBuffer(file, { chunkBytes, map: false });
        expect(Buffer.compare(got, readFileSync(file))).toBe(0);
        expect(got.byteOffset).toBe(0); // owns its memory: typed views of it are aligned
      }),
      { numRuns: 60 },
    );
  });

  it('streams a file through slices of any size that concatenate to its bytes, each at its offset', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 300 }),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 64 }),
        (bytes, sliceBytes, chunkBytes) => {
          writeFileSync(file, bytes);
          const parts: Buffer[] = [];
          let sized = -1;
          const size = forEachFileSlice(
            file,
            sliceBytes,
            (n) => (sized = n),
            (slice, at) => {
              expect(at).toBe(parts.reduce((n, p) => n + p.length, 0));
              parts.push(Buffer.from(slice)); // the slice's buffer is reused
            },
            { chunkBytes, map: false },
          );
          expect([size, sized]).toEqual([bytes.length, bytes.length]);
          expect(Buffer.compare(Buffer.concat(parts), Buffer.from(bytes))).toBe(0);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('gives u32 and i32 files as typed arrays of their little-endian entries, read 3 bytes at a time', () => {
    const values = [0, 1, 0x7fffffff, 0x80000000, 0xffffffff, 123456789];
    const raw = Buffer.alloc(4 * values.length);
    values.forEach((v, i) => raw.writeUInt32LE(v, 4 * i));
    writeFileSync(file, raw);
    expect([...readFileTyped(file, Uint32Array, { chunkBytes: 3, map: false })]).toEqual(values);
    expect([...readFileTyped(file, Int32Array, { chunkBytes: 3, map: false })]).toEqual(values.map((v) => v | 0));
  });

  it('refuses a file that is not a whole number of entries, naming it', () => {
    writeFileSync(file, Buffer.alloc(6));
    expect(() => readFileTyped(file, Uint32Array)).toThrow(ShardFormatError);
    expect(() => readFileTyped(file, Uint32Array)).toThrow(
      /data\.bin: 6 bytes is not a whole number of 4-byte entries/,
    );
  });

  it('names a missing file as a ShardFormatError and refuses a slice size Node cannot read at once', () => {
    expect(() => readFileArrayBuffer(join(dir, 'absent.bin'))).toThrow(/absent\.bin: missing/);
    writeFileSync(file, Buffer.alloc(1));
    expect(() => readFileArrayBuffer(file, { chunkBytes: 0, map: false })).toThrow(RangeError);
    expect(() => readFileArrayBuffer(file, { chunkBytes: 2 ** 31, map: false })).toThrow(/from 1 to 2147483647/);
  });

  it('reads an empty file as zero bytes, mapped or not', () => {
    writeFileSync(file, Buffer.alloc(0));
    expect(readFileBuffer(file, { chunkBytes: 1, map: false }).length).toBe(0);
    expect(readFileTyped(file, Int32Array, { chunkBytes: 1, map: true }).length).toBe(0);
  });

  it('maps the file through the addon when asked: same bytes, and the mapping is in the process', () => {
    const mappedFile = join(dir, 'mapped.bin');
    const bytes = Buffer.from(Array.from({ length: 10_000 }, (_, i) => (i * 7) & 0xff));
    writeFileSync(mappedFile, bytes);
    const got = readFileBuffer(mappedFile, { chunkBytes: 3, map: true });
    expect(Buffer.compare(got, bytes)).toBe(0);
    expect(readFileSync('/proc/self/maps', 'utf8')).toContain(mappedFile);
  });

  it('falls back to reading when the file cannot be mapped, so a missing file is still named', () => {
    expect(() => readFileBuffer(join(dir, 'absent.bin'), { chunkBytes: 3, map: true })).toThrow(/absent\.bin: missing/);
  });
});
