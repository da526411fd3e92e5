import type Database from 'better-sqlite3';
import type { ArticleMetadata } from './types.ts';
import { blockDecompressor } from './block-codec.ts';
import { decodeArticle, type ProfileValues } from './doc-encoding.ts';
import { readRow } from './row-block.ts';
import { DOC_COLUMNS } from './schema.ts';

/** A block as read: its rows' profile ids (1, 2 or 4 bytes each) and its decompressed rows. */
interface Block {
  readonly profiles: Buffer;
  readonly width: number;
  readonly raw: Buffer;
}

/** Decoded blocks kept: a scan in doc_ix order (filters) reads each block once; 256 × ~3.6 KB. */
const CACHE_BLOCKS = 256;
const VALUE_COLUMNS = DOC_COLUMNS.length - 1;

/** Reads the rows of a format-3 store; `fail` builds the error that names the file. */
export function blockRows(db: Database.Database, docCount: number, blockRowsMeta: string | undefined,
  profileOf: (id: number) => ProfileValues, fail: (problem: string) => Error) {
  const rowsPerBlock = Number(blockRowsMeta);
  if (!Number.isSafeInteger(rowsPerBlock) || rowsPerBlock < 1) throw fail(`has block_rows ${String(blockRowsMeta)}, expected a positive integer`);
  const dictionary = db.prepare('SELECT bytes FROM dictionary WHERE id = 0').pluck().get() as Buffer | undefined;
  if (dictionary === undefined) throw fail('has no zstd dictionary row');
  const decompress = blockDecompressor(dictionary);
  const select = db.prepare('SELECT profiles, bytes, rows FROM blocks WHERE block = ?').raw(true);
  const cache = new Map<number, Block>();
  const blockAt = (k: number): Block => {
    let block = cache.get(k);
    if (block !== undefined) return block;
    const row = select.get(k) as [Buffer, number, Buffer] | undefined;
    const rows = Math.min(rowsPerBlock, docCount - k * rowsPerBlock);
    if (row === undefined || row[0].length % rows !== 0) throw fail(`has no block ${k} of ${rows} rows`);
    let raw: Buffer;
    try {
      raw = decompress(row[2], row[1]);
    } catch (e) {
      throw fail(`has a block ${k} that does not decompress (${(e as Error).message})`);
    }
    block = { profiles: row[0], width: row[0].length / rows, raw };
    // First in, first out: cheaper than LRU bookkeeping on every hit, and a scan reads in order anyway.
    if (cache.size >= CACHE_BLOCKS) cache.delete(cache.keys().next().value as number);
    cache.set(k, block);
    return block;
  };
  /** The metadata of a doc_ix in [0, docCount). */
  const get = (docIx: number): ArticleMetadata => {
    const block = blockAt(Math.floor(docIx / rowsPerBlock));
    const row = docIx % rowsPerBlock;
    const profile = block.profiles.readUIntLE(row * block.width, block.width);
    try {
      return decodeArticle(profileOf(profile), readRow(block.raw, VALUE_COLUMNS, row, profile));
    } catch (e) {
      throw fail(`has a row ${docIx} that does not decode (${(e as Error).message})`);
    }
  };
  return { get };
}
