import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startDigestThread } from './digest-thread.ts';

const dir = mkdtempSync(join(tmpdir(), 'digest-thread-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('startDigestThread', () => {
  it('gives the sha256 and size of files of 0 bytes, under one read and over several, reporting every byte', async () => {
    const thread = startDigestThread();
    try {
      for (const size of [0, 1000, (40 << 20) + 7]) {
        const data = randomBytes(size);
        const file = join(dir, `f-${size}`);
        writeFileSync(file, data);
        let reported = 0;
        const got = await thread.digest(file, (n) => {
          reported += n;
        });
        expect(got).toEqual({ bytes: size, sha256: createHash('sha256').update(data).digest('hex') });
        expect(reported).toBe(size);
      }
    } finally {
      await thread.close();
    }
  });

  it('rejects with the error code of a file it cannot read, and keeps working', async () => {
    const thread = startDigestThread();
    try {
      await expect(thread.digest(join(dir, 'missing'))).rejects.toMatchObject({ code: 'ENOENT' });
      writeFileSync(join(dir, 'small'), 'abc');
      expect((await thread.digest(join(dir, 'small'))).sha256).toBe(createHash('sha256').update('abc').digest('hex'));
    } finally {
      await thread.close();
    }
  });

  it('a digest under way rejects when the thread is closed', async () => {
    const thread = startDigestThread();
    writeFileSync(join(dir, 'big'), Buffer.alloc(64 << 20));
    const pending = thread.digest(join(dir, 'big'));
    await thread.close();
    await expect(pending).rejects.toThrow(/the digest thread stopped/);
  });
});
