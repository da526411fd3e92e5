import type Database from 'better-sqlite3';
import type { ArticleMetadata } from './types.ts';
import { blockDecompressor } from './block-codec.ts';
import { decodeArticle, type ProfileValues } from './doc-encoding.ts';
import { readRow, valueStarts, type ValueStarts } from './row-block.ts';
import { DOC_COLUMNS } from './schema.ts';

/** A block as read: its rows' profile ids (1, 2 or 4 bytes each) and its decompressed rows. */
interface Block {
  readonly profiles: Buffer;
  readonly width: number;
  readonly raw: Buffer;
  readonly starts: ValueStarts;
}

/** Decoded blocks kept: a scan in doc_ix order (filters) reads each block once; 256 × ~3.6 KB. */
const CACHE_BLOCKS = 256;
const VALUE_COLUMNS = DOC_COLUMNS.length - 1;

/** Profile-id columns kept for filters: 16 bytes or so each, so a whole year's fit for most stores. */
const CACHE_PROFILE_BLOCKS = 1 << 16;

/** Reads the rows of a format-3 store; `fail` builds the error that names the file. */
export function blockRows(
  db: Database.Database,
  docCount: number,
  blockRowsMeta: string | undefined,
  profileOf: (id: number) => ProfileValues,
  fail: (problem: string) => Error,
) {
  const rowsPerBlock = Number(blockRowsMeta);
  if (!Number.isSafeInteger(rowsPerBlock) || rowsPerBlock < 1)
    throw fail(`has block_rows ${String(blockRowsMeta)}, expected a positive integer`);
  const dictionary = db.prepare('SELECT bytes FROM dictionary WHERE id = 0').pluck().get() as Buffer | undefined;
  if (dictionary === undefined) throw fail('has no zstd dictionary row');
  const decompress = blockDecompressor(dictionary);
  const select = db.prepare('SELECT block, profiles, bytes, rows FROM blocks WHERE block = ?').raw(true);
  // A page's blocks in one statement: ~4x fewer statement runs' overhead than one get per block (as in format 2).
  const selectMany = db
    .prepare('SELECT block, profiles, bytes, rows FROM blocks WHERE block IN (SELECT value FROM json_each(?))')
    .raw(true);
  const cache = new Map<number, Block>();
  const decode = ([k, profiles, bytes, packed]: [number, Buffer, number, Buffer]): Block => {
    const rows = Math.min(rowsPerBlock, docCount - k * rowsPerBlock);
    if (profiles.length % rows !== 0)
      throw fail(`has a block ${k} with ${profiles.length} bytes of profile ids for ${rows} rows`);
    let raw: Buffer;
    let starts: ValueStarts;
    try {
      raw = decompress(packed, bytes);
      starts = valueStarts(raw, VALUE_COLUMNS, rows);
    } catch (e) {
      throw fail(`has a block ${k} that does not decode (${(e as Error).message})`);
    }
    const block = { profiles, width: profiles.length / rows, raw, starts };
    // First in, first out: cheaper than LRU bookkeeping on every hit, and a scan reads in order anyway.
    if (cache.size >= CACHE_BLOCKS) cache.delete(cache.keys().next().value as number);
    cache.set(k, block);
    return block;
  };
  const blockAt = (k: number): Block => {
    const cached = cache.get(k);
    if (cached !== undefined) return cached;
    const row = select.get(k) as [number, Buffer, number, Buffer] | undefined;
    if (row === undefined) throw fail(`has no block ${k}`);
    return decode(row);
  };
  // Filters read only profile ids: the uncompressed column, without the block's compressed rows.
  const selectProfiles = db.prepare('SELECT profiles FROM blocks WHERE block = ?').pluck();
  const profileCache = new Map<number, Buffer>();
  /** The profile id of a doc_ix in [0, docCount). */
  const profileIdOf = (docIx: number): number => {
    const k = Math.floor(docIx / rowsPerBlock);
    let ids = cache.get(k)?.profiles ?? profileCache.get(k);
    if (ids === undefined) {
      ids = selectProfiles.get(k) as Buffer | undefined;
      if (ids === undefined) throw fail(`has no block ${k}`);
      if (profileCache.size >= CACHE_PROFILE_BLOCKS) profileCache.clear();
      profileCache.set(k, ids);
    }
    const rows = Math.min(rowsPerBlock, docCount - k * rowsPerBlock);
    if (ids.length % rows !== 0)
      throw fail(`has a block ${k} with ${ids.length} bytes of profile ids for ${rows} rows`);
    const width = ids.length / rows;
    return ids.readUIntLE((docIx % rowsPerBlock) * width, width);
  };
  const rowOf = (block: Block, docIx: number): ArticleMetadata => {
    const row = docIx % rowsPerBlock;
    const profile = block.profiles.readUIntLE(row * block.width, block.width);
    return decodeArticle(profileOf(profile), readRow(block.raw, block.starts, row, profile));
  };
  /** The metadata of a doc_ix in [0, docCount). */
  const get = (docIx: number): ArticleMetadata => rowOf(blockAt(Math.floor(docIx / rowsPerBlock)), docIx);
  /** The metadata of distinct doc_ix in [0, docCount), in ascending order (each block is decoded once). */
  const getSorted = (docIxs: readonly number[]): ArticleMetadata[] => {
    const missing = [...new Set(docIxs.map((d) => Math.floor(d / rowsPerBlock)))].filter((k) => !cache.has(k));
    const fetched = new Map<number, [number, Buffer, number, Buffer]>();
    if (missing.length > 1)
      for (const row of selectMany.all(JSON.stringify(missing)) as [number, Buffer, number, Buffer][])
        fetched.set(row[0], row);
    let block: Block | undefined;
    let at = -1;
    return docIxs.map((d) => {
      const k = Math.floor(d / rowsPerBlock);
      if (k !== at) {
        const row = fetched.get(k);
        block = row === undefined ? blockAt(k) : decode(row);
        at = k;
      }
      return rowOf(block!, d);
    });
  };
  return { get, getSorted, profileIdOf };
}
