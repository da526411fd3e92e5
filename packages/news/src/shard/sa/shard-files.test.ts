import {
  closeSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  truncateSync,
  writeFileSync,
  ftruncateSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  MAX_SHARD_TEXT_BYTES,
  SHARD_FORMAT_VERSION,
  ShardFormatError,
  ShardTooLargeError,
  createShardWriter,
  indexShard,
  openShard,
  verifyShardFiles,
} from '../index.ts';
import type { ShardFileSet } from '../index.ts';

const root = mkdtempSync(path.join(tmpdir(), 'shard-files-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let next = 0;

async function buildShard(docs: string[]): Promise<{ dir: string; files: ShardFileSet }> {
  const dir = path.join(root, String(next++));
  const writer = createShardWriter(dir);
  docs.forEach((d, i) => expect(writer.append(Buffer.from(d))).toBe(i));
  await writer.finish();
  return { dir, files: await indexShard(dir) };
}

describe('shard files', () => {
  it('records format, sizes and SHA-256 of every file, and verifies them', async () => {
    const phases: string[] = [];
    const dir = path.join(root, 'progress');
    const writer = createShardWriter(dir);
    writer.append(Buffer.from('Hallo'));
    writer.append(Buffer.from('Welt €'));
    expect([writer.textBytes, writer.docCount]).toEqual([6 + 9, 2]);
    await writer.finish();
    const files = await indexShard(dir, { onProgress: (phase) => phases.push(phase) });
    expect(files).toMatchObject({ formatVersion: SHARD_FORMAT_VERSION, textBytes: 15, docCount: 2, pointerBytes: 4 });
    expect(files.files.map((f) => [f.name, f.bytes])).toEqual([
      ['header.json', expect.any(Number)],
      ['text.bin', 15],
      ['docs.u64', 16],
      ['sa.u32', 60],
    ]);
    expect(phases).toContain('sort');
    expect(phases.at(-1)).toBe('done');
    await verifyShardFiles(dir, files);
  });

  it('rejects a file whose bytes changed, naming it', async () => {
    const { dir, files } = await buildShard(['abc', 'def']);
    const text = readFileSync(path.join(dir, 'text.bin'));
    text[2] = 0x7a;
    writeFileSync(path.join(dir, 'text.bin'), text);
    await expect(verifyShardFiles(dir, files)).rejects.toThrow(/text\.bin: sha256/);
  });

  it('rejects a file set from another build', async () => {
    const { dir } = await buildShard(['abc']);
    const other = await buildShard(['abcd']);
    await expect(verifyShardFiles(dir, other.files)).rejects.toThrow(ShardFormatError);
  });

  it('refuses to open a shard of another format version', async () => {
    const { dir } = await buildShard(['abc']);
    const file = path.join(dir, 'header.json');
    writeFileSync(file, readFileSync(file, 'utf8').replace('"formatVersion": 1', '"formatVersion": 2'));
    expect(() => openShard(dir, 'disk')).toThrow(ShardFormatError);
    expect(() => openShard(dir, 'memory')).toThrow(/header\.json: format version 2, this reader supports 1/);
  });

  it('refuses to open a truncated suffix array, naming the file', async () => {
    const { dir } = await buildShard(['abc', 'de']);
    truncateSync(path.join(dir, 'sa.u32'), 12);
    for (const mode of ['memory', 'disk'] as const) {
      expect(() => openShard(dir, mode)).toThrow(/sa\.u32: 12 bytes, header says 28/);
    }
  });

  it('refuses to open a directory that was written but not indexed', async () => {
    const dir = path.join(root, 'unindexed');
    const writer = createShardWriter(dir);
    writer.append(Buffer.from('x'));
    await writer.finish();
    expect(() => openShard(dir, 'disk')).toThrow(/header\.json: missing/);
  });

  it('replaces an earlier shard written to the same directory', async () => {
    const { dir } = await buildShard(['old text']);
    const writer = createShardWriter(dir);
    writer.append(Buffer.from('new'));
    expect(() => openShard(dir, 'disk')).toThrow(ShardFormatError);
    await writer.finish();
    await indexShard(dir);
    const reader = openShard(dir, 'disk');
    expect(reader.documentBytes(0).toString()).toBe('new');
    reader.close();
  });

  it('refuses to index text whose offset table does not point at separators', async () => {
    const dir = path.join(root, 'bad-offsets');
    const writer = createShardWriter(dir);
    writer.append(Buffer.from('abc'));
    writer.append(Buffer.from('de'));
    await writer.finish();
    const offsets = Buffer.alloc(16);
    offsets.writeBigUInt64LE(2n, 8); // points into 'abc'
    writeFileSync(path.join(dir, 'docs.u64'), offsets);
    await expect(indexShard(dir)).rejects.toThrow(/docs\.u64: offset of article 1 \(2\)/);
  });

  it('refuses to index text with a stray separator byte', async () => {
    const dir = path.join(root, 'stray-ff');
    const writer = createShardWriter(dir);
    writer.append(Buffer.from('abc'));
    await writer.finish();
    writeFileSync(path.join(dir, 'text.bin'), Buffer.from([0xff, 0x61, 0xff, 0x62]));
    await expect(indexShard(dir)).rejects.toThrow(/text\.bin: 2 separator bytes \(0xFF\) but 1 articles/);
  });

  it('refuses a header that is not a shard header', async () => {
    const { dir } = await buildShard(['abc']);
    writeFileSync(path.join(dir, 'header.json'), '{"magic": "something-else"}');
    expect(() => openShard(dir, 'disk')).toThrow(/header\.json: not a shard header/);
  });

  it('refuses an article containing the 0xFF separator', () => {
    const writer = createShardWriter(path.join(root, 'ff'));
    expect(() => writer.append(Uint8Array.of(0x61, 0xff))).toThrow(/0xFF/);
  });

  it('refuses to grow a shard past the format limit before writing the article', () => {
    const writer = createShardWriter(path.join(root, 'big'));
    writer.append(Buffer.from('a'));
    // Zero-filled and never touched: only address space, no RAM.
    const huge = new Uint8Array(MAX_SHARD_TEXT_BYTES - 2);
    expect(() => writer.append(huge)).toThrow(ShardTooLargeError);
    expect(writer.textBytes).toBe(2);
  });

  it('refuses to index a text file over the limit before reading or sorting it', async () => {
    const dir = path.join(root, 'sparse');
    const writer = createShardWriter(dir);
    writer.append(Buffer.from('a'));
    await writer.finish();
    const fd = openSync(path.join(dir, 'text.bin'), 'r+');
    ftruncateSync(fd, MAX_SHARD_TEXT_BYTES + 1); // sparse: no disk space used
    closeSync(fd);
    const err = await indexShard(dir).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ShardTooLargeError);
    expect(String(err)).toMatch(/Split it into parts: news build --part-bytes N/);
  });
});
