import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { firstDigestMismatch, type RecordedFile } from './verify-digests.ts';

const dir = mkdtempSync(join(tmpdir(), 'verify-digests-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const file = (name: string, bytes: number, recorded?: string): RecordedFile => {
  const data = Buffer.alloc(bytes, name);
  writeFileSync(join(dir, name), data);
  return {
    path: join(dir, name),
    rel: `shards/${name}`,
    bytes,
    sha256: recorded ?? createHash('sha256').update(data).digest('hex'),
  };
};

describe('firstDigestMismatch', () => {
  const good = [file('a', 3 << 20), file('b', 1), file('c', 0), file('d', 70_000)];
  for (const threads of [1, 2, 3]) {
    it(`finds every file intact on ${threads} thread(s), each file read once`, async () => {
      expect(await firstDigestMismatch(good, threads)).toBeNull();
    });
    it(`names a file whose sha256 differs on ${threads} thread(s)`, async () => {
      const bad = file('e', 5000, '0'.repeat(64));
      expect(await firstDigestMismatch([...good, bad], threads)).toEqual({ rel: 'shards/e', reason: 'sha256' });
    });
  }
  it('reports a file it cannot read instead of rejecting', async () => {
    const gone: RecordedFile = { path: join(dir, 'missing'), rel: 'shards/missing', bytes: 1, sha256: '0'.repeat(64) };
    expect(await firstDigestMismatch([good[0]!, gone], 2)).toMatchObject({
      rel: 'shards/missing',
      reason: 'unreadable',
    });
  });
  it('answers at once for no files', async () => {
    expect(await firstDigestMismatch([], 2)).toBeNull();
  });
  it('stops when aborted and resolves instead of hashing the rest', async () => {
    const big = file('big', 8 << 20);
    const stop = new AbortController();
    const pending = firstDigestMismatch([big, big, big, big], 2, stop.signal);
    stop.abort();
    await expect(pending).resolves.not.toBeUndefined();
  });
});
