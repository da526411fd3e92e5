import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import { createShardWriter, indexCompressedShard, openShard } from '../index.ts';
import type { ShardOpenMode } from '../index.ts';
import { describeShardReaderContract } from '../shard-reader.contract.ts';
import type { ShardFactory } from '../shard-reader.contract.ts';
import { describeShardReaderProperties } from '../shard-reader.properties.ts';
import type { ReadWholeFileOptions } from '../whole-file.ts';
import type { CompressedParams } from './format.ts';

/** Tiny blocks, so a few-byte shard already crosses wavelet-tree blocks, sample chunks and text blocks. */
const TINY: CompressedParams = { blockSymbols: 16, sampleRate: 4, textBlockBytes: 64, brotliQuality: 1 };

const root = mkdtempSync(path.join(tmpdir(), 'shard-compressed-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let next = 0;

/** The compressed kind through the real writer, indexer and openShard (which picks the reader by the header). */
const compressed =
  (mode: ShardOpenMode, params?: CompressedParams, read?: ReadWholeFileOptions): ShardFactory =>
  async (docs) => {
    const dir = path.join(root, String(next++));
    const writer = createShardWriter(dir);
    for (const doc of docs) writer.append(doc);
    await writer.finish();
    await indexCompressedShard(dir, {}, params);
    return openShard(dir, mode, read);
  };

// Default parameters in both modes run in ../kinds.test.ts with every kind; here the kind's own parameters.
describeShardReaderContract('compressed reader (tiny blocks)', compressed('disk', TINY));
// Every file read 5 bytes at a time: the slice loop that lets a file of any size load (issue 24).
describeShardReaderContract(
  'compressed reader (memory, 5-byte reads)',
  compressed('memory', TINY, { chunkBytes: 5, map: false }),
);
describeShardReaderProperties('compressed reader (tiny blocks)', compressed('memory', TINY), 100);
describeShardReaderProperties(
  'compressed reader (tiny blocks, 5-byte reads)',
  compressed('memory', TINY, { chunkBytes: 5, map: false }),
  40,
);
// A sample rate that is not a power of two (format versions 2 and 3; the default is 36).
describeShardReaderProperties(
  'compressed reader (tiny blocks, sample rate 3)',
  compressed('memory', { ...TINY, sampleRate: 3 }),
  60,
);
