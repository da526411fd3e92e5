import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import { buildShardInMemory, createShardWriter, indexShard, openShard } from './index.ts';
import type { ShardOpenMode } from './index.ts';
import { describeShardReaderContract } from './shard-reader.contract.ts';
import type { ShardFactory } from './shard-reader.contract.ts';
import { describeShardReaderProperties } from './shard-reader.properties.ts';
import type { ReadWholeFileOptions } from './whole-file.ts';

const root = mkdtempSync(path.join(tmpdir(), 'shard-reader-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let next = 0;

/** Writes the articles through the real writer and indexer, then opens the files. */
const onDisk = (mode: ShardOpenMode, read?: ReadWholeFileOptions): ShardFactory => async (docs) => {
  const dir = path.join(root, String(next++));
  const writer = createShardWriter(dir);
  for (const doc of docs) writer.append(doc);
  await writer.finish();
  await indexShard(dir);
  return openShard(dir, mode, read);
};
/** Read, not mapped, 3 bytes at a time: every file crosses many slice boundaries, as a > 2 GiB one crosses 64 MiB ones. */
const TINY_READS: ReadWholeFileOptions = { chunkBytes: 3, map: false };

describeShardReaderContract('memory reader (buildShardInMemory)', buildShardInMemory);
describeShardReaderContract('memory reader (openShard, files mapped)', onDisk('memory'));
describeShardReaderContract('memory reader (openShard, 3-byte reads)', onDisk('memory', TINY_READS));
describeShardReaderContract('disk reader', onDisk('disk'));

describeShardReaderProperties('memory reader', buildShardInMemory, 150);
describeShardReaderProperties('disk reader', onDisk('disk'), 60);
describeShardReaderProperties('memory reader (openShard, 3-byte reads)', onDisk('memory', TINY_READS), 40);
