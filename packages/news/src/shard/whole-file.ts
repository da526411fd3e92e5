import { constants } from 'node:buffer';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { addonWith } from '../suffix-array/index.ts';
import { IO_CHUNK_BYTES } from './chunked-io.ts';
import { ShardFormatError, ShardMemoryError } from './errors.ts';

/**
 * How the memory readers load a shard's files. `readFileSync` refuses any file over 2 GiB (issue 24: a 0.7 GB part
 * has a 2.8 GB suffix array), and one `readSync` call reads at most 2^31 − 1 bytes, so a file is either mapped
 * whole (`map`, through the addon) or read in slices of `chunkBytes` into memory allocated for its whole size first.
 */
export interface ReadWholeFileOptions {
  /** Bytes per `readSync` call; tests pass a few bytes to cross many slice boundaries. */
  readonly chunkBytes: number;
  /**
   * Map the file read-only instead of reading it (native/map_file.c), when the addon is built; else, or when mapping
   * fails, read it. Only for arrays nothing writes to: a write to the mapping crashes the process.
   */
  readonly map: boolean;
}

export const defaultReadWholeFileOptions: ReadWholeFileOptions = Object.freeze({
  chunkBytes: IO_CHUNK_BYTES,
  map: false,
});

type Typed<T> = (new (buffer: ArrayBuffer, byteOffset: number, length: number) => T) & {
  readonly BYTES_PER_ELEMENT: number;
};

/**
 * The whole file in one ArrayBuffer, mapped or read in slices. An ArrayBuffer may exceed the 2^32 bytes of a Buffer or a
 * Uint8Array on Node 20, so a suffix array of up to 4 × (2^31 − 1) bytes (format v1's largest text) still loads.
 * @example new Int32Array(readFileArrayBuffer('/release/…/sa.u32'))
 */
export function readFileArrayBuffer(
  file: string,
  options: ReadWholeFileOptions = defaultReadWholeFileOptions,
): ArrayBuffer {
  const { chunkBytes } = options;
  if (!Number.isInteger(chunkBytes) || chunkBytes < 1 || chunkBytes > IO_MAX_BYTES) {
    throw new RangeError(`chunkBytes must be an integer from 1 to ${IO_MAX_BYTES}, got ${chunkBytes}`);
  }
  const whole = options.map ? mapWhole(file) : undefined;
  if (whole !== undefined) return whole;
  const fd = openOrFail(file);
  try {
    const size = fstatSync(fd).size;
    const memory = allocate(file, size);
    for (let at = 0; at < size;) {
      // A view per slice: a Uint8Array over the whole of a > 2^32-byte ArrayBuffer is refused.
      const slice = new Uint8Array(memory, at, Math.min(chunkBytes, size - at));
      const got = readSync(fd, slice, 0, slice.length, at);
      if (got === 0)
        throw new ShardFormatError(file, `ended at byte ${at} of ${size} while being read (changed on disk?)`);
      at += got;
    }
    return memory;
  } finally {
    closeSync(fd);
  }
}

/**
 * The whole file as a Buffer (for byte files: text, offsets, tables), read in slices; at most
 * `buffer.constants.MAX_LENGTH` bytes (2^32 on 64-bit Node 20), above which it throws ShardMemoryError.
 */
export function readFileBuffer(file: string, options: ReadWholeFileOptions = defaultReadWholeFileOptions): Buffer {
  const memory = readFileArrayBuffer(file, options);
  if (memory.byteLength > constants.MAX_LENGTH)
    throw new ShardMemoryError(file, memory.byteLength, `a Buffer holds at most ${constants.MAX_LENGTH} bytes`);
  return Buffer.from(memory); // shares the memory; offset 0, so any typed view of it is aligned
}

/** The whole file as a typed array of its elements (u16, u32, i32 files), read in slices; never copied. */
export function readFileTyped<T>(
  file: string,
  Kind: Typed<T>,
  options: ReadWholeFileOptions = defaultReadWholeFileOptions,
): T {
  const memory = readFileArrayBuffer(file, options);
  if (memory.byteLength % Kind.BYTES_PER_ELEMENT !== 0) {
    throw new ShardFormatError(
      file,
      `${memory.byteLength} bytes is not a whole number of ${Kind.BYTES_PER_ELEMENT}-byte entries`,
    );
  }
  return new Kind(memory, 0, memory.byteLength / Kind.BYTES_PER_ELEMENT);
}

/**
 * Streams a file through one buffer of `sliceBytes` (filled `chunkBytes` at a time): `begin(size)` first, then
 * `visit(slice, at)` per slice in order (the last may be shorter). For tables decoded on open (the offset table):
 * no copy of the whole file is held, mapped or read, beside what it decodes into. Returns the file's size.
 * @example forEachFileSlice('shard/docs.u64', 65536, (n) => void n, (slice, at) => decode(slice, at))
 */
export function forEachFileSlice(
  file: string,
  sliceBytes: number,
  begin: (size: number) => void,
  visit: (slice: Buffer, at: number) => void,
  options: ReadWholeFileOptions = defaultReadWholeFileOptions,
): number {
  const fd = openOrFail(file);
  try {
    const size = fstatSync(fd).size;
    begin(size);
    const buffer = Buffer.allocUnsafe(Math.min(sliceBytes, size));
    for (let at = 0; at < size; at += buffer.length) {
      const slice = buffer.subarray(0, Math.min(buffer.length, size - at));
      for (let got = 0; got < slice.length;) {
        const n = readSync(fd, slice, got, Math.min(options.chunkBytes, slice.length - got), at + got);
        if (n === 0)
          throw new ShardFormatError(file, `ended at byte ${at + got} of ${size} while being read (changed on disk?)`);
        got += n;
      }
      visit(slice, at);
    }
    return size;
  } finally {
    closeSync(fd);
  }
}

/** Node's largest single read (`kIoMaxLength`, 2^31 − 1): readSync refuses more in one call. */
const IO_MAX_BYTES = 2 ** 31 - 1;

function openOrFail(file: string): number {
  try {
    return openSync(file, 'r');
  } catch (e) {
    throw new ShardFormatError(
      file,
      (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : `unreadable: ${String(e)}`,
    );
  }
}

interface FileMapper {
  mapFile(file: string): ArrayBuffer;
}
const hasMapFile = (addon: object): addon is FileMapper => 'mapFile' in addon && typeof addon.mapFile === 'function';
let mapper: FileMapper | null | undefined;

/** The file mapped by the addon, or undefined (addon not built, or the mapping failed: the caller reads instead). */
function mapWhole(file: string): ArrayBuffer | undefined {
  mapper ??= addonWith(hasMapFile) ?? null;
  try {
    return mapper?.mapFile(file);
  } catch {
    return undefined; // reading it reports a missing or unreadable file as a ShardFormatError
  }
}

function allocate(file: string, size: number): ArrayBuffer {
  try {
    return new ArrayBuffer(size);
  } catch (e) {
    // V8 throws RangeError when the machine (or its limits) cannot give that much memory at once.
    if (e instanceof RangeError) throw new ShardMemoryError(file, size, e.message);
    throw e;
  }
}
