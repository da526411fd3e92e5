import { writeFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/fixtures.ts';
import { readStoryFile, writeStoryFile } from './story-file.ts';
import { StoryTable } from './story-table.ts';

const tmp = tempDir('story-file-');
afterAll(() => tmp.cleanup());

describe('story files', () => {
  it('read back what was written, 8 bytes per article, and count story sizes across years', async () => {
    const a = join(tmp.dir, '2023.stories');
    const b = join(tmp.dir, '2024.stories');
    await writeStoryFile(
      a,
      { year: '2023', base: 0, exact: Uint32Array.of(0, 1, 1), near: Uint32Array.of(0, 0, 0) },
      5,
    );
    await writeStoryFile(b, { year: '2024', base: 3, exact: Uint32Array.of(1, 4), near: Uint32Array.of(0, 4) }, 5);
    expect(readFileSync(b).length).toBe(32 + 2 * 8);
    const files = [
      await readStoryFile(a, { year: '2023', docCount: 3 }),
      await readStoryFile(b, { year: '2024', docCount: 2 }),
    ];
    const table = new StoryTable(files);
    expect(table.storyOf('2024', 0, 'exact')).toBe(1);
    expect(table.sizeOf(1, 'exact')).toBe(3);
    expect(table.sizeOf(0, 'near')).toBe(4);
    expect(table.storyOf('2025', 0, 'near')).toBeUndefined();
  });

  it('refuses another year, a truncated file and a story that starts after its article', async () => {
    const p = join(tmp.dir, 'x.stories');
    await writeStoryFile(p, { year: '2023', base: 0, exact: Uint32Array.of(0, 2), near: Uint32Array.of(0, 0) }, 2);
    await expect(readStoryFile(p, { year: '2023', docCount: 2 })).rejects.toThrow(/not an earlier article/);
    await writeStoryFile(p, { year: '2023', base: 0, exact: Uint32Array.of(0, 1), near: Uint32Array.of(0, 0) }, 2);
    await expect(readStoryFile(p, { year: '2022', docCount: 2 })).rejects.toThrow(/manifest says 2022/);
    writeFileSync(p, readFileSync(p).subarray(0, 40));
    await expect(readStoryFile(p, { year: '2023', docCount: 2 })).rejects.toThrow(/bytes/);
  });
});
