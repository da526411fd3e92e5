import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORES, startService, type Service } from './support/harness.ts';

describe('the uploads route serves regular files only, never through a symbolic link', () => {
  let svc: Service;
  let outside: string;
  const url = (rel: string) => `${svc.base}/wp-content/uploads/${rel}`;
  beforeAll(async () => {
    // Files are served without the store; one store is enough here.
    svc = await startService(STORES[0]!);
    outside = mkdtempSync(join(tmpdir(), 'events-outside-'));
    writeFileSync(join(outside, 'secret.png'), 'not for the web');
    mkdirSync(join(outside, '01'));
    writeFileSync(join(outside, '01', 'other.png'), 'not for the web either');
    const month = join(svc.uploadsDir, '2026', '01');
    mkdirSync(month, { recursive: true });
    writeFileSync(join(month, 'real.png'), 'a real upload');
    symlinkSync(join(outside, 'secret.png'), join(month, 'escape.png'));
    symlinkSync(join(month, 'real.png'), join(month, 'alias.png'));
    symlinkSync(month, join(svc.uploadsDir, '2026', '02'));
    symlinkSync(outside, join(svc.uploadsDir, '2025'));
    mkdirSync(join(month, 'folder.png'));
  });
  afterAll(async () => {
    await svc.close();
    rmSync(outside, { recursive: true, force: true });
  });

  it('serves a regular file with GET and HEAD', async () => {
    const res = await fetch(url('2026/01/real.png'));
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('a real upload');
    const head = await fetch(url('2026/01/real.png'), { method: 'HEAD' });
    expect([head.status, head.headers.get('content-length')]).toEqual([200, '13']);
  });

  it.each([
    ['a link to a file outside the folder', '2026/01/escape.png'],
    ['a link to a file inside the folder', '2026/01/alias.png'],
    ['a file under a linked month folder', '2026/02/real.png'],
    ['a file under a linked year folder', '2025/01/other.png'],
    ['a folder named like a file', '2026/01/folder.png'],
  ])('answers 404 for %s, GET and HEAD', async (_what, rel) => {
    for (const method of ['GET', 'HEAD']) {
      const res = await fetch(url(rel), { method });
      expect(res.status).toBe(404);
      if (method === 'GET') expect(await res.text()).toBe('Not Found');
    }
  });
});
