import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import { buildShardInMemory, createShardWriter, indexShard, openShard } from './index.ts';
import type { ShardOpenMode } from './index.ts';
import { describeShardReaderContract } from './shard-reader.contract.ts';
import type { ShardFactory } from './shard-reader.contract.ts';
import { describeShardReaderProperties } from './shard-reader.properties.ts';

const root = mkdtempSync(path.join(tmpdir(), 'shard-reader-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let next = 0;

/** Writes the articles through the real writer and indexer, then opens the files. */
const onDisk = (mode: ShardOpenMode): ShardFactory => async (docs) => {
  const dir = path.join(root, String(next++));
  const writer = createShardWriter(dir);
  for (const doc of docs) writer.append(doc);
  await writer.finish();
  await indexShard(dir);
  return openShard(dir, mode);
};

describeShardReaderContract('memory reader (buildShardInMemory)', buildShardInMemory);
describeShardReaderContract('memory reader (openShard)', onDisk('memory'));
describeShardReaderContract('disk reader', onDisk('disk'));

describeShardReaderProperties('memory reader', buildShardInMemory, 150);
describeShardReaderProperties('disk reader', onDisk('disk'), 60);
