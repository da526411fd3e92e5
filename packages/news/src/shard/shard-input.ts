import { statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { DocTable } from './doc-table.ts';
import { ShardFormatError, ShardTooLargeError } from './errors.ts';
import { FILES, MAX_SHARD_TEXT_BYTES, SEPARATOR } from './format.ts';
import type { IndexShardOptions } from './types.ts';

/** What `createShardWriter` left for an indexer: the text, the raw offset table and it parsed, checked together. */
export interface ShardInput {
  readonly textFile: string;
  readonly size: number;
  readonly text: Buffer;
  readonly docsRaw: Buffer;
  readonly docs: DocTable;
}

/**
 * Reads and checks a written shard's text and offsets for either index kind: refuses a text over
 * MAX_SHARD_TEXT_BYTES before reading it, and a text whose separators do not match the offset table.
 */
export async function readShardInput(
  dir: string,
  progress: NonNullable<IndexShardOptions['onProgress']>,
): Promise<ShardInput> {
  const textFile = path.join(dir, FILES.text);
  const docsFile = path.join(dir, FILES.docOffsets);
  let size: number;
  try {
    size = statSync(textFile).size;
  } catch {
    throw new ShardFormatError(textFile, 'missing (write the shard with createShardWriter first)');
  }
  if (size > MAX_SHARD_TEXT_BYTES) throw new ShardTooLargeError(dir, size, MAX_SHARD_TEXT_BYTES);

  progress('read-text', 0, size);
  const text = await readFile(textFile);
  if (text.length !== size) throw new ShardFormatError(textFile, 'changed while being read');
  progress('read-text', size, size);
  progress('check-docs', 0, size);
  let docsRaw: Buffer;
  try {
    docsRaw = await readFile(docsFile);
  } catch {
    throw new ShardFormatError(docsFile, 'missing (write the shard with createShardWriter first)');
  }
  const docs = DocTable.fromU64(docsRaw, size, docsFile, (pos) => text[pos]);
  let separators = 0;
  for (let at = text.indexOf(SEPARATOR); at !== -1; at = text.indexOf(SEPARATOR, at + 1)) separators++;
  if (separators !== docs.docCount) {
    throw new ShardFormatError(
      textFile,
      `${separators} separator bytes (0xFF) but ${docs.docCount} articles in ${FILES.docOffsets}`,
    );
  }
  progress('check-docs', size, size);
  return { textFile, size, text, docsRaw, docs };
}
