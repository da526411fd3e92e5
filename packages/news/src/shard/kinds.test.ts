import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createShardWriter,
  indexKinds,
  kindOfShard,
  openShard,
  verifyShardFiles,
  type IndexKind,
  type IndexShardOptions,
  type ShardOpenMode,
} from './index.ts';
import { describeShardReaderContract, type ShardFactory } from './shard-reader.contract.ts';
import { describeShardReaderProperties } from './shard-reader.properties.ts';
import type { ReadWholeFileOptions } from './whole-file.ts';

// Every registered kind, not a hand list: a kind added to kinds.ts is held to the same contract with no edit here.
const root = mkdtempSync(path.join(tmpdir(), 'shard-kinds-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let next = 0;

async function written(docs: readonly Uint8Array[]): Promise<string> {
  const dir = path.join(root, String(next++));
  const writer = createShardWriter(dir);
  for (const doc of docs) writer.append(doc);
  await writer.finish();
  return dir;
}

/** The kind's own indexer, then openShard, which finds the kind from the header. */
const built =
  (
    kind: IndexKind,
    mode: ShardOpenMode,
    read?: Partial<ReadWholeFileOptions>,
    opts?: IndexShardOptions,
  ): ShardFactory =>
  async (docs) => {
    const dir = await written(docs);
    await kind.index(dir, opts);
    return openShard(dir, mode, read);
  };
/** Read, not mapped, 3 bytes at a time: every file crosses many slice boundaries, as a > 2 GiB one crosses 64 MiB ones. */
const TINY_READS: ReadWholeFileOptions = { chunkBytes: 3, map: false };

for (const kind of indexKinds()) {
  describeShardReaderContract(`${kind.name} kind (memory)`, built(kind, 'memory'));
  describeShardReaderContract(`${kind.name} kind (disk)`, built(kind, 'disk'));
  describeShardReaderContract(`${kind.name} kind (memory, 3-byte reads)`, built(kind, 'memory', TINY_READS));
  describeShardReaderProperties(`${kind.name} kind (memory)`, built(kind, 'memory'), 60);
  describeShardReaderProperties(`${kind.name} kind (disk)`, built(kind, 'disk'), 60);
  describeShardReaderProperties(`${kind.name} kind (memory, 3-byte reads)`, built(kind, 'memory', TINY_READS), 40);
  // Headline indexes are built with shortDocuments (a kind may then keep no separate text): the same answers.
  const short = { shortDocuments: true };
  describeShardReaderContract(`${kind.name} kind, short documents (memory)`, built(kind, 'memory', undefined, short));
  describeShardReaderContract(`${kind.name} kind, short documents (disk)`, built(kind, 'disk', undefined, short));
  describeShardReaderProperties(
    `${kind.name} kind, short documents (memory)`,
    built(kind, 'memory', undefined, short),
    60,
  );
  describeShardReaderProperties(
    `${kind.name} kind, short documents (disk, 3-byte reads)`,
    built(kind, 'disk', TINY_READS, short),
    40,
  );

  describe(`${kind.name} kind: registry entry`, () => {
    it('writes a header in its current format version, read back by its header reader and by the registry', async () => {
      const dir = await written([Buffer.from('eins zwei'), Buffer.from('drei')]);
      const files = await kind.index(dir);
      expect(kind.readableFormatVersions).toContain(kind.formatVersion);
      expect(files).toMatchObject({ formatVersion: kind.formatVersion, textBytes: 15, docCount: 2, pointerBytes: 4 });
      expect(kind.readHeader(dir)).toMatchObject({ formatVersion: kind.formatVersion, textBytes: 15, docCount: 2 });
      expect(kindOfShard(dir)).toBe(kind);
      await verifyShardFiles(dir, files);
    });

    it('states a cost model the release planner can use', () => {
      expect(kind.cost.peakBytesPerTextByte('divsufsort')).toBeGreaterThanOrEqual(1);
      expect(kind.cost.peakBytesPerTextByte('sais')).toBeGreaterThanOrEqual(
        kind.cost.peakBytesPerTextByte('divsufsort'),
      );
      expect(kind.cost.diskBytesPerTextByte).toBeGreaterThan(0);
    });
  });
}
