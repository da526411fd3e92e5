import type Database from 'better-sqlite3';
import type { DocValues } from './doc-encoding.ts';
import { blockCompressor, trainBlockDictionary } from './block-codec.ts';
import { RowBlockWriter } from './row-block.ts';
import { BLOCK_ROWS, DOC_COLUMNS } from './schema.ts';

/** One article's row as the store keeps it: its profile id and its own values (encodeArticle). */
export interface EncodedRow {
  readonly profile: number;
  readonly doc: DocValues;
}

/** Raw blocks the dictionary is trained on: the first ones (enough to see each source's patterns, bounded time). */
const TRAIN_BYTES = 8 << 20;
/** Blocks compressed at once on the libuv pool. */
const BATCH_BLOCKS = 256;

/**
 * Writes the `blocks` and `dictionary` tables of a format-3 store from its rows in doc_ix order. `rows` is called
 * twice (the dictionary is trained on the first blocks before any block is compressed), and must yield the same
 * rows both times.
 */
export async function writeBlocks(db: Database.Database, rows: () => Iterable<EncodedRow>): Promise<void> {
  const sample: Buffer[] = [];
  let sampled = 0;
  for (const block of blocksOf(rows())) {
    sample.push(block.raw);
    sampled += block.raw.length;
    if (sampled >= TRAIN_BYTES) break;
  }
  const dictionary = trainBlockDictionary(sample);
  db.prepare('INSERT INTO dictionary (id, bytes) VALUES (0, ?)').run(dictionary);
  const compress = blockCompressor(dictionary);
  const insert = db.prepare('INSERT INTO blocks (block, profiles, bytes, rows) VALUES (?, ?, ?, ?)');
  let pending: { profiles: Buffer; raw: Buffer }[] = [];
  let next = 0;
  const flush = async (): Promise<void> => {
    const packed = await Promise.all(pending.map((b) => compress(b.raw)));
    pending.forEach((b, i) => insert.run(next++, b.profiles, b.raw.length, packed[i]));
    pending = [];
  };
  for (const block of blocksOf(rows())) {
    pending.push(block);
    if (pending.length >= BATCH_BLOCKS) await flush();
  }
  await flush();
}

/** Cuts rows into blocks of BLOCK_ROWS. */
function* blocksOf(rows: Iterable<EncodedRow>): Generator<{ profiles: Buffer; raw: Buffer }> {
  let writer = new RowBlockWriter(DOC_COLUMNS.length - 1);
  let ids: number[] = [];
  for (const row of rows) {
    writer.append(row.doc);
    ids.push(row.profile);
    if (ids.length === BLOCK_ROWS) {
      yield { profiles: packProfiles(ids), raw: writer.bytes() };
      writer = new RowBlockWriter(DOC_COLUMNS.length - 1);
      ids = [];
    }
  }
  if (ids.length > 0) yield { profiles: packProfiles(ids), raw: writer.bytes() };
}

/** Profile ids as 1, 2 or 4 bytes each (the widest id of the block decides), little-endian. */
export function packProfiles(ids: readonly number[]): Buffer {
  const max = Math.max(...ids);
  const width = max < 2 ** 8 ? 1 : max < 2 ** 16 ? 2 : 4;
  const out = Buffer.alloc(ids.length * width);
  ids.forEach((id, i) => out.writeUIntLE(id, i * width, width));
  return out;
}
