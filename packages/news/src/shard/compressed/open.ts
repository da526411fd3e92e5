import { openSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { DocTable } from '../doc-table.ts';
import { ShardFormatError } from '../errors.ts';
import { checkShardFileSizes } from '../format.ts';
import type { ShardOpenMode, ShardReader } from '../types.ts';
import { FmIndex } from './fm-index.ts';
import { CFILES, readCompressedHeader } from './format.ts';
import { assertLittleEndian } from './indexer.ts';
import { NativeLocator } from './native-locate.ts';
import { CompressedShardReader } from './reader.ts';
import { SaSamples } from './sa-samples.ts';
import { TextBlocks, type BlockSource } from './text-blocks.ts';

type Typed<T> = new (buffer: ArrayBuffer, byteOffset: number, length: number) => T;

/** A typed view of a file's bytes, copied only if Node's buffer is not aligned for it. */
function load<T>(file: string, Kind: Typed<T> & { BYTES_PER_ELEMENT: number }): T {
  let buf = readFileSync(file);
  if (buf.byteOffset % Kind.BYTES_PER_ELEMENT !== 0) {
    const own = Buffer.allocUnsafeSlow(buf.length);
    buf.copy(own);
    buf = own;
  }
  return new Kind(buf.buffer, buf.byteOffset, buf.length / Kind.BYTES_PER_ELEMENT);
}

/**
 * Opens a compressed shard. Both modes keep the FM-index, samples and document table in RAM (they are the
 * small part, ≈ 0.5 × text); 'disk' reads the compressed text blocks by positional reads instead of loading them.
 */
export function openCompressedShard(dir: string, mode: ShardOpenMode): ShardReader {
  assertLittleEndian(dir);
  if (mode !== 'memory' && mode !== 'disk') throw new TypeError(`openShard: mode must be 'memory' or 'disk', got ${String(mode)}`);
  const header = readCompressedHeader(dir);
  const file = (key: keyof typeof CFILES): string => path.join(dir, CFILES[key]);
  checkShardFileSizes(dir, header);
  const docs = new DocTable(readFileSync(file('docOffsets')), header.textBytes, file('docOffsets'));
  const words = load(file('bits'), Uint32Array);
  let fm: FmIndex;
  try {
    fm = new FmIndex({
      textBytes: header.textBytes, blockSymbols: header.blockSymbols, dollarRank: header.dollarRank,
      counts: load(file('counts'), Uint16Array), lengths: readFileSync(file('lengths')), words,
    });
  } catch (e) {
    throw new ShardFormatError(file('bits'), (e as Error).message);
  }
  const samples = new SaSamples(load(file('sampleChunks'), Uint32Array), readFileSync(file('sampleRows')), load(file('sampleValues'), Uint32Array), header.sampleRate, header.textBytes);
  const fd = mode === 'disk' ? openSync(file('text'), 'r') : undefined;
  const source: BlockSource = fd === undefined ? { kind: 'memory', bytes: readFileSync(file('text')) } : { kind: 'disk', fd };
  const text = new TextBlocks(source, readFileSync(file('textBlocks')), header.textBytes, header.textBlockBytes, file('textBlocks'), header.files.text.bytes);
  return new CompressedShardReader(fm, samples, text, docs, fd, NativeLocator.open(fm, samples));
}
