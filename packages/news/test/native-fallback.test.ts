/**
 * The fresh-machine path: the addon built with libdivsufsort hidden (NEWS_NATIVE_SORTER=sais) holds only our SA-IS,
 * links no libdivsufsort, and sorts correctly. Built from a copy of native/ in a temp folder, so the addon the other
 * tests load is not touched.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { loadDivsufsort } from '../src/suffix-array/native.ts';
import { tempDir } from './support/fixtures.ts';

const NATIVE = fileURLToPath(new URL('../native/', import.meta.url));
const tmp = tempDir('native-fallback-');
afterAll(() => tmp.cleanup());

describe('the suffix-sorting addon without libdivsufsort', () => {
  it('builds with only a C compiler, says so, and sorts like the reference', async () => {
    // Every source of the addon (not a fixed list: a new C file must build on the fresh-machine path too).
    for (const f of readdirSync(NATIVE).filter((n) => /\.(c|h|gyp|mjs)$/.test(n)))
      copyFileSync(join(NATIVE, f), join(tmp.dir, f));
    // …and the vendored libraries it compiles in (zstd), every folder but a previous build's output.
    for (const d of readdirSync(NATIVE, { withFileTypes: true }).filter((e) => e.isDirectory() && e.name !== 'build')) {
      cpSync(join(NATIVE, d.name), join(tmp.dir, d.name), { recursive: true });
    }
    const build = spawnSync(process.execPath, [join(tmp.dir, 'build.mjs')], {
      encoding: 'utf8',
      // -O0 (after binding.gyp's -O2 on the compiler line, so it wins): this test is about what gets linked and
      // whether SA-IS sorts right, not about speed; compiling the vendored zstd optimised took 34 CPU-seconds of
      // the suite, unoptimised 11.
      env: { ...process.env, NEWS_NATIVE_SORTER: 'sais', CFLAGS: '-O0' },
      timeout: 300_000,
    });
    expect(build.status, build.stderr).toBe(0);
    expect(build.stdout).toMatch(/building the suffix sorter with our SA-IS only/);
    const file = join(tmp.dir, 'build', 'Release', 'divsufsort_addon.node');
    const ldd = spawnSync('ldd', [file], { encoding: 'utf8' });
    expect(ldd.stdout).not.toMatch(/divsufsort/);
    const addon = loadDivsufsort(file);
    expect(addon.sorters).toEqual(['sais']);
    const text = Buffer.from('abracadabra\u00ffmississippi\u00ff'.repeat(300));
    const out = Buffer.allocUnsafeSlow(text.length * 4);
    await addon.sortSuffixes(text, out);
    const sa = Array.from({ length: text.length }, (_, r) => out.readInt32LE(r * 4));
    const reference = Array.from({ length: text.length }, (_, i) => i).sort((a, b) =>
      Buffer.compare(text.subarray(a), text.subarray(b)),
    );
    expect(sa).toEqual(reference);
    expect(() => addon.sortSuffixes(text, out, 'divsufsort')).toThrow(/divsufsort only when built with libdivsufsort/);
  }, 300_000);
});
