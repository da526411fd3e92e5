import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createShardWriter, indexCompressedShard, openShard, ShardFormatError } from '../index.ts';
import { COMPRESSED_FORMAT_VERSION } from './format.ts';

const root = mkdtempSync(path.join(tmpdir(), 'compressed-format-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function shardWithRate(name: string, sampleRate: number): Promise<string> {
  const dir = path.join(root, name);
  const writer = createShardWriter(dir);
  for (let d = 0; d < 30; d++) writer.append(Buffer.from(`article ${d}: sampled every ${sampleRate} positions`));
  await writer.finish();
  await indexCompressedShard(dir, {}, { blockSymbols: 64, sampleRate, textBlockBytes: 256, brotliQuality: 1 });
  return dir;
}

function withVersion(dir: string, version: number): void {
  const file = path.join(dir, 'header.json');
  writeFileSync(file, readFileSync(file, 'utf8').replace(/"formatVersion": \d+/, `"formatVersion": ${version}`));
}

const refusal = (dir: string): unknown => {
  try {
    openShard(dir, 'memory').close();
    return undefined;
  } catch (e) {
    return e;
  }
};

describe('compressed format versions', () => {
  it('writes version 2, which allows a sample rate that is not a power of two', async () => {
    const dir = await shardWithRate('rate-48', 48);
    expect(JSON.parse(readFileSync(path.join(dir, 'header.json'), 'utf8'))).toMatchObject({ formatVersion: COMPRESSED_FORMAT_VERSION, sampleRate: 48 });
    expect(COMPRESSED_FORMAT_VERSION).toBe(2);
    const reader = openShard(dir, 'memory');
    expect(reader.count(Buffer.from('sampled every'))).toBe(30);
    reader.close();
  });

  it('still reads version 1 shards (powers of two), and refuses version 1 with another rate', async () => {
    const pow2 = await shardWithRate('v1-rate-16', 16);
    withVersion(pow2, 1);
    const reader = openShard(pow2, 'memory');
    expect(reader.count(Buffer.from('article 1'))).toBe(11); // 1, 10–19
    reader.close();
    const odd = await shardWithRate('v1-rate-48', 48);
    withVersion(odd, 1);
    const e = refusal(odd);
    expect(e).toBeInstanceOf(ShardFormatError);
    expect(String(e)).toMatch(/sampleRate 48 is not supported by format version 1/);
  });

  it('refuses a version it does not read, saying which it reads', async () => {
    const dir = await shardWithRate('v3', 48);
    withVersion(dir, 3);
    expect(String(refusal(dir))).toMatch(/compressed format version 3, this reader supports 1 and 2; rebuild the shard/);
  });
});
