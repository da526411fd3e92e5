import xxhash from 'xxhash-wasm';

/** Hashes an article's UTF-8 bytes: xxHash64, seed 0, as an unsigned decimal string (spec §2: a string, never a number). */
export type TextHasher = (textBytes: Uint8Array) => string;

let hasherPromise: Promise<TextHasher> | undefined;

/**
 * The shared text hasher (the wasm module is compiled once per process).
 * @example const hash = await createTextHasher(); hash(Buffer.from('a')) // '15154266338359012955'
 */
export function createTextHasher(): Promise<TextHasher> {
  hasherPromise ??= xxhash().then((api) => (bytes: Uint8Array) => BigInt.asUintN(64, api.h64Raw(bytes, 0n)).toString());
  return hasherPromise;
}
