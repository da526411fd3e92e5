import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { indexKinds, openShard, type IndexKind, type ShardOpenMode } from '../shard/index.ts';
import { describeShardReaderContract, type ShardFactory } from '../shard/shard-reader.contract.ts';
import { describeShardReaderProperties } from '../shard/shard-reader.properties.ts';
import { TITLES_DIR } from './layout.ts';
import { createPartWriter } from './part-writer.ts';

const root = mkdtempSync(path.join(tmpdir(), 'part-writer-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let next = 0;

/**
 * The headline index as the release builder makes it: the docs are the headlines of a part written with
 * `createPartWriter` (beside article texts of their own), indexed by the kind, then opened as any shard.
 */
const headlines =
  (kind: IndexKind, mode: ShardOpenMode): ShardFactory =>
  async (docs) => {
    const dir = path.join(root, String(next++));
    const part = createPartWriter(dir);
    docs.forEach((title, i) => part.append(Buffer.from(`article ${i} text`), title));
    await part.finish();
    await kind.index(dir);
    await kind.index(path.join(dir, TITLES_DIR));
    return openShard(path.join(dir, TITLES_DIR), mode);
  };

// Every registered kind: the headline index is a shard of the release's kind, held to the same contract.
for (const kind of indexKinds()) {
  describeShardReaderContract(`${kind.name} headline index (memory)`, headlines(kind, 'memory'));
  describeShardReaderContract(`${kind.name} headline index (disk)`, headlines(kind, 'disk'));
  describeShardReaderProperties(`${kind.name} headline index (memory)`, headlines(kind, 'memory'), 25);
  describeShardReaderProperties(`${kind.name} headline index (disk)`, headlines(kind, 'disk'), 25);
}

describe('createPartWriter', () => {
  it('numbers headline d as article d, empty headlines included, and sizes the part by its article text', async () => {
    const dir = path.join(root, 'pair');
    const part = createPartWriter(dir);
    expect(part.append(Buffer.from('first body'), Buffer.from('Oil prices rise'))).toBe(0);
    expect(part.append(Buffer.from('second'), Buffer.alloc(0))).toBe(1);
    expect(part.append(Buffer.from('third'), Buffer.from('Ölpreise'))).toBe(2);
    expect(part.textBytes).toBe(11 + 7 + 6);
    expect(part.docCount).toBe(3);
    await part.finish();
    const [kind] = indexKinds();
    if (kind === undefined) throw new Error('no index kind registered');
    await kind.index(dir);
    await kind.index(path.join(dir, TITLES_DIR));
    const body = openShard(dir, 'memory');
    const titles = openShard(path.join(dir, TITLES_DIR), 'memory');
    expect([0, 1, 2].map((d) => titles.documentBytes(d).toString())).toEqual(['Oil prices rise', '', 'Ölpreise']);
    expect(titles.locate(titles.find(Buffer.from('Ölp')).lo).doc).toBe(2);
    expect(body.documentBytes(2).toString()).toBe('third');
    body.close();
    titles.close();
  });
});
