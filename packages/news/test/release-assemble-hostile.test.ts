/**
 * `news release assemble` on parts that were tampered with (issue 23, item 8): every path a part manifest names stays
 * inside its part, links are refused, every file's sha256 is checked before it is placed, and a refusal leaves
 * nothing under --out, no partial folder, and nothing changed outside.
 */
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assembleRelease, buildRelease, type IndexManifest } from '../src/release/index.ts';
import { article, tempDir, writeJsonl } from './support/fixtures.ts';
import { expectSameRelease, filesUnder } from './support/release-compare.ts';

const NEWS = fileURLToPath(new URL('../bin/news.js', import.meta.url));
const tmp = tempDir('release-assemble-hostile-');
afterAll(() => tmp.cleanup());
const at = (name: string): string => join(tmp.dir, name);
const records = [
  article(0, '2019-01-09'),
  article(1, '2019-02-09'),
  article(2, '2020-03-01'),
  article(3, '2020-05-05'),
];
const base = { indexVersion: 'v1', partBytes: 100 } as const;

beforeAll(async () => {
  const input = writeJsonl(at('a.jsonl'), records);
  await buildRelease({ ...base, inputs: [input], out: at('single') });
  await buildRelease({ ...base, inputs: [input], out: at('p2019'), onlyPeriods: '2019' });
  await buildRelease({ ...base, inputs: [input], out: at('p2020'), onlyPeriods: '2020' });
});

interface Case {
  /** The tampered copy of part 2019, and a folder beside it that must stay as it is. */
  readonly part: string;
  readonly outside: string;
  readonly out: string;
}

/** A fresh copy of part 2019 (and of its first shard, outside it, as a target to point at), changed by `tamper`. */
function hostileCase(tamper: (c: Case, manifest: IndexManifest) => void): Case {
  const root = join(tmp.dir, `case-${readdirSync(tmp.dir).length}`);
  const c = { part: join(root, 'p2019'), outside: join(root, 'outside'), out: join(root, 'release', 'r') };
  cpSync(at('p2019'), c.part, { recursive: true });
  mkdirSync(join(root, 'release'));
  cpSync(join(c.part, 'indexes/news/shards/2019-01'), join(c.outside, '2019-01'), { recursive: true });
  const file = join(c.part, 'index-manifest.json');
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as IndexManifest;
  tamper(c, manifest);
  writeFileSync(file, JSON.stringify(manifest));
  return c;
}

const firstShard = (m: IndexManifest) => m.indexes[0]!.shards[0]!;

/** Refused with `code` and a message matching `message`; nothing at --out, no partial folder, the outside unchanged. */
async function expectRefused(c: Case, code: string, message: RegExp): Promise<void> {
  const outsideBefore = snapshot(c.outside);
  const e = await assembleRelease({ parts: [c.part, at('p2020')], out: c.out, indexVersion: 'v1' }).then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toMatchObject({ code });
  expect((e as Error).message).toMatch(message);
  expect(readdirSync(join(c.out, '..'))).toEqual([]);
  expect(snapshot(c.outside)).toEqual(outsideBefore);
}

const snapshot = (dir: string): Record<string, string> =>
  Object.fromEntries(filesUnder(dir).map((f) => [f, readFileSync(join(dir, f)).toString('base64')]));

describe('news release assemble refuses tampered parts', () => {
  it('still assembles untouched parts (the checks accept what news build writes)', async () => {
    const out = join(tmp.fresh(), 'r');
    await assembleRelease({ parts: [at('p2019'), at('p2020')], out, indexVersion: 'v1' });
    expectSameRelease(at('single'), out);
  });

  it('refuses a shard dir with .. that leaves the part (it used to link files from outside and exit 0)', async () => {
    const c = hostileCase((k, m) => {
      firstShard(m).dir = '../outside/2019-01';
    });
    await expectRefused(
      c,
      'manifest_invalid',
      /part .*p2019: its index manifest names "\.\.\/outside\/2019-01", which is not a plain relative path inside the part \(it has "\.\."\); rebuild that part with news build --only-periods/,
    );
  });

  it('refuses an absolute shard dir', async () => {
    const c = hostileCase((k, m) => {
      firstShard(m).dir = join(k.outside, '2019-01');
    });
    await expectRefused(c, 'manifest_invalid', /not a plain relative path inside the part \(it is absolute\)/);
  });

  it('refuses a file name that is a path, and a NUL in a name', async () => {
    await expectRefused(
      hostileCase((k, m) => {
        firstShard(m).files[0]!.name = '../../../outside/2019-01/header.json';
      }),
      'manifest_invalid',
      /not a plain relative path/,
    );
    await expectRefused(
      hostileCase((k, m) => {
        firstShard(m).files[0]!.name = 'header.json\u0000x';
      }),
      'manifest_invalid',
      /it has a NUL byte/,
    );
  });

  it("refuses a shard dir pointing at the part itself, or at another shard's folder (it used to fail with EEXIST, exit 70)", async () => {
    await expectRefused(
      hostileCase((k, m) => {
        firstShard(m).dir = '.';
      }),
      'manifest_invalid',
      /it has "\."/,
    );
    const other = hostileCase((k, m) => {
      firstShard(m).dir = m.indexes[0]!.shards[1]!.dir;
    });
    await expectRefused(
      other,
      'manifest_invalid',
      /names "indexes\/news\/shards\/2019-02", as the folder of shard 2019-01; news build writes it in "indexes\/news\/shards\/2019-01"/,
    );
  });

  it("refuses a headline folder or file that leaves the part, or is not the shard's own titles/ folder", async () => {
    await expectRefused(
      hostileCase((k, m) => {
        firstShard(m).titles!.dir = '../outside/2019-01';
      }),
      'manifest_invalid',
      /names "\.\.\/outside\/2019-01", which is not a plain relative path inside the part/,
    );
    await expectRefused(
      hostileCase((k, m) => {
        firstShard(m).titles!.files[0]!.name = '../../header.json';
      }),
      'manifest_invalid',
      /not a plain relative path/,
    );
    await expectRefused(
      hostileCase((k, m) => {
        firstShard(m).titles!.dir = 'indexes/news/shards/2019-02/titles';
      }),
      'manifest_invalid',
      /as the folder of the headlines of shard 2019-01; news build writes it in "indexes\/news\/shards\/2019-01\/titles"/,
    );
  });

  it("refuses a store path that is not the year's store", async () => {
    const c = hostileCase(() => {});
    const file = join(c.part, 'metadata-manifest.json');
    const meta = JSON.parse(readFileSync(file, 'utf8')) as { indexes: { years: { file: string }[] }[] };
    meta.indexes[0]!.years[0]!.file = '../outside/2019.sqlite';
    writeFileSync(file, JSON.stringify(meta));
    await expectRefused(
      c,
      'manifest_invalid',
      /its metadata manifest names "\.\.\/outside\/2019\.sqlite", which is not a plain relative path inside the part \(it has "\.\."\)/,
    );
  });

  it('refuses a symbolic link in place of a shard file, even to identical bytes', async () => {
    const c = hostileCase(() => {});
    const text = join(c.part, 'indexes/news/shards/2019-01/text.bin');
    rmSync(text);
    symlinkSync(join(c.outside, '2019-01/text.bin'), text);
    await expectRefused(
      c,
      'file_corrupt',
      /indexes\/news\/shards\/2019-01\/text\.bin is a symbolic link, not a regular file; .*replace the link by the file itself or rebuild that part/,
    );
  });

  it('refuses a shard folder that is a symbolic link to a folder outside the part', async () => {
    const c = hostileCase(() => {});
    const shard = join(c.part, 'indexes/news/shards/2019-01');
    rmSync(shard, { recursive: true });
    symlinkSync(join(c.outside, '2019-01'), shard);
    await expectRefused(
      c,
      'file_corrupt',
      /indexes\/news\/shards\/2019-01\/header\.json lies outside the part \(a folder on its path is a symbolic link, to .*outside\/2019-01\); .*replace the link by the folder itself/,
    );
  });

  it('refuses a part whose shard file has 100 flipped bytes (sizes match, the sha256 does not)', async () => {
    const c = hostileCase(() => {});
    const text = join(c.part, 'indexes/news/shards/2019-02/text.bin');
    const bytes = readFileSync(text);
    for (let i = 0; i < Math.min(100, bytes.length); i++) bytes[i] = (bytes[i] as number) ^ 0xff;
    // A fresh inode: the copy in `single` shares none with it, and a hard link would carry the change into other cases.
    renameSync(text, `${text}.old`);
    writeFileSync(text, bytes);
    rmSync(`${text}.old`);
    await expectRefused(
      c,
      'file_corrupt',
      /part .*p2019: indexes\/news\/shards\/2019-02\/text\.bin does not match its sha256 in the part's manifest \(corrupted\); rebuild that part or copy it again/,
    );
  });

  it('refuses an --out inside a part, or a part inside --out, before writing anything', async () => {
    const c = hostileCase(() => {});
    const inside = join(c.part, 'release');
    const e = await assembleRelease({ parts: [c.part, at('p2020')], out: inside, indexVersion: 'v1' }).catch(
      (err: unknown) => err,
    );
    expect(e).toMatchObject({
      code: 'invalid_option',
      message: expect.stringMatching(/--out .* lies inside part .*p2019; choose an --out outside every part folder/),
    });
    expect(existsSync(inside)).toBe(false);
    expect(readdirSync(c.part).filter((n) => n.startsWith('release'))).toEqual([]);
    const f = await assembleRelease({
      parts: [c.part, at('p2020')],
      out: join(c.part, '..'),
      indexVersion: 'v1',
      force: true,
    }).catch((err: unknown) => err);
    expect(f).toMatchObject({
      code: 'invalid_option',
      message: expect.stringMatching(/part .*p2019 lies inside --out/),
    });
    expect(existsSync(join(c.part, 'part-manifest.json'))).toBe(true);
  });

  it('the CLI exits 1 with one line for a part that leaves its folder, and writes nothing', () => {
    const c = hostileCase((k, m) => {
      firstShard(m).dir = '../outside/2019-01';
    });
    const r = spawnSync(
      process.execPath,
      [NEWS, 'release', 'assemble', '--out', c.out, '--index-version', 'v1', c.part, at('p2020')],
      { encoding: 'utf8', timeout: 120_000 },
    );
    expect(r.status).toBe(1);
    expect(r.stderr.split('\n').filter((l) => l.startsWith('news release assemble:'))).toEqual([
      expect.stringMatching(/not a plain relative path inside the part/),
    ]);
    expect(readdirSync(join(c.out, '..'))).toEqual([]);
  }, 120_000);
});
