import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { article, tempDir, writeJsonl } from './support/fixtures.ts';

const NEWS = fileURLToPath(new URL('../bin/news.js', import.meta.url));
const tmp = tempDir('cli-build-plan-');
afterAll(() => tmp.cleanup());
const news = (...args: string[]) =>
  spawnSync(process.execPath, [NEWS, ...args], {
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, LOG_LEVEL: 'info' },
  });

describe('news build plans parts and memory before sorting', () => {
  const input = writeJsonl(
    join(tmp.dir, 'in.jsonl'),
    Array.from({ length: 40 }, (_, i) => article(i, '2024-03-10')),
  );

  it('refuses a --part-bytes that --memory cannot sort before reading anything, naming both fixes', () => {
    const out = join(tmp.dir, 'refused');
    const r = news(
      'build',
      '--input',
      input,
      '--out',
      out,
      '--index-version',
      'p-1',
      '--memory',
      '1',
      '--part-bytes',
      '900000000',
    );
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(
      /--part-bytes 900000000 needs about .* GB of RAM to sort, over the --memory budget of 1\.00 GB; lower --part-bytes to at most \d+ or raise --memory to/,
    );
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(tmp.dir).some((f) => f.startsWith('refused.partial'))).toBe(false);
  });

  it('splits one month into parts with --part-bytes and logs the plan with the suffix sorter', () => {
    const out = join(tmp.dir, 'parts');
    const r = news(
      'build',
      '--input',
      input,
      '--out',
      out,
      '--index-version',
      'p-2',
      '--part-bytes',
      '600',
      '--memory',
      '2',
    );
    expect(r.status, r.stderr).toBe(0);
    const ids = readdirSync(join(out, 'indexes', 'news', 'shards')).sort();
    expect(ids.length).toBeGreaterThan(2);
    expect(ids.every((id) => /^2024-03\.p\d{3}$/.test(id))).toBe(true);
    const plan = r.stderr
      .split('\n')
      .filter((l) => l.includes('"plan"'))
      .map((l) => JSON.parse(l) as { msg: string; plan: { parts: number; splitPeriods: number; sorter: string } });
    expect(plan).toHaveLength(1);
    expect(plan[0]?.plan).toMatchObject({ parts: ids.length, splitPeriods: 1 });
    expect(plan[0]?.msg).toMatch(/suffix sorter (divsufsort|sais)/);
  });

  it('rejects a --part-bytes that is not a positive integer as a usage error', () => {
    const r = news(
      'build',
      '--input',
      input,
      '--out',
      join(tmp.dir, 'x'),
      '--index-version',
      'p-3',
      '--part-bytes',
      '1.5',
    );
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/--part-bytes must be a positive integer/);
  });
});
