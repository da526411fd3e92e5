import { createHash } from 'node:crypto';
import { createReadStream, statSync } from 'node:fs';
import path from 'node:path';
import { ShardFormatError } from './errors.ts';
import { FILES } from './format.ts';
import { kindOfShard } from './kinds.ts';
import type { ShardFileSet } from './types.ts';

async function hashFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * Checks a shard directory of any kind against what its indexer returned (e.g. from a release manifest): the header's
 * numbers, then each file's size and SHA-256 (streamed). Throws ShardFormatError naming the first mismatch.
 */
export async function verifyShardFiles(
  dir: string,
  expected: ShardFileSet,
  opts: { readonly digests?: boolean } = {},
): Promise<void> {
  const header = kindOfShard(dir).readHeader(dir);
  const headerFile = path.join(dir, FILES.header);
  for (const key of ['formatVersion', 'textBytes', 'docCount', 'pointerBytes'] as const) {
    if (header[key] !== expected[key]) {
      throw new ShardFormatError(headerFile, `${key} is ${header[key]}, expected ${expected[key]}`);
    }
  }
  for (const f of expected.files) {
    const file = path.join(dir, f.name);
    let bytes: number;
    try {
      bytes = statSync(file).size;
    } catch {
      throw new ShardFormatError(file, 'missing');
    }
    if (bytes !== f.bytes) throw new ShardFormatError(file, `${bytes} bytes, expected ${f.bytes}`);
    // A caller that hashed the files already (openRelease, on threads) checks only the header and sizes here.
    if (opts.digests === false) continue;
    const digest = await hashFile(file);
    if (digest !== f.sha256) throw new ShardFormatError(file, `sha256 ${digest}, expected ${f.sha256}`);
  }
}
