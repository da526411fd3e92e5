import { cpSync, mkdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeSyntheticCorpus, defaultSyntheticCorpusOptions } from '../src/corpus/index.ts';
import {
  buildRelease,
  openRelease,
  ReleaseVerificationError,
  type IndexManifest,
  type MetadataManifest,
} from '../src/release/index.ts';
import { tempDir } from './support/fixtures.ts';

const tmp = tempDir('release-manifests-');
const good = join(tmp.dir, 'good');
let n = 0;

beforeAll(async () => {
  const corpus = join(tmp.dir, 'synthetic.jsonl.gz');
  await writeSyntheticCorpus(corpus, { ...defaultSyntheticCorpusOptions, textBytes: 300_000, years: 2 });
  await buildRelease({ inputs: [corpus], out: good, indexVersion: 'rel-1' });
});
afterAll(() => tmp.cleanup());

/** A copy of the good release, changed by `tamper`. */
function tampered(tamper: (dir: string) => void): string {
  const dir = join(tmp.dir, `copy-${n++}`);
  cpSync(good, dir, { recursive: true });
  tamper(dir);
  return dir;
}
function editJson<T>(path: string, edit: (m: T) => void): void {
  const m = JSON.parse(readFileSync(path, 'utf8')) as T;
  edit(m);
  writeFileSync(path, JSON.stringify(m));
}
const firstShard = (dir: string): string => {
  const m = JSON.parse(readFileSync(join(dir, 'index-manifest.json'), 'utf8')) as IndexManifest;
  return join(dir, m.indexes[0]?.shards[0]?.dir ?? '');
};

async function refusal(
  dir: string,
  options: Parameters<typeof openRelease>[1] = {},
): Promise<ReleaseVerificationError> {
  const error = await openRelease(dir, options).then(
    (r) => {
      r.close();
      return undefined;
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ReleaseVerificationError);
  const e = error as ReleaseVerificationError;
  expect(e.message).not.toContain('\n');
  expect(e.message).toMatch(/rebuild|restore|pass the matching|point/);
  return e;
}

describe('openRelease', () => {
  it('opens an intact release with full verification', async () => {
    const release = await openRelease(good, { verify: 'full', mode: 'disk', expectedIndexVersion: 'rel-1' });
    expect(release.indexVersion).toBe('rel-1');
    expect(release.indexes.get('news')?.shards.length).toBeGreaterThan(12);
    release.close();
  });

  it('refuses manifests that name different releases', async () => {
    const dir = tampered((d) =>
      editJson<MetadataManifest>(join(d, 'metadata-manifest.json'), (m) => {
        m.index_version = 'rel-2';
      }),
    );
    const e = await refusal(dir);
    expect(e.code).toBe('manifest_mismatch');
    expect(e.message).toContain('index-manifest.json names release "rel-1" but metadata-manifest.json names "rel-2"');
  });

  it('refuses manifests with different shard sets', async () => {
    const dir = tampered((d) =>
      editJson<MetadataManifest>(join(d, 'metadata-manifest.json'), (m) => {
        m.indexes[0]?.shards.pop();
      }),
    );
    expect((await refusal(dir)).message).toMatch(/shard sets differ/);
  });

  it('refuses manifests with different format versions', async () => {
    const dir = tampered((d) =>
      editJson<IndexManifest>(join(d, 'index-manifest.json'), (m) => {
        if (m.indexes[0]) m.indexes[0].shard_format_version = 99;
      }),
    );
    expect((await refusal(dir)).message).toMatch(
      /shard format version 99 in the index manifest, 1 in the metadata manifest/,
    );
  });

  it('refuses a release of manifest format version 1 (before parts), saying to rebuild', async () => {
    const dir = tampered((d) =>
      editJson<IndexManifest>(join(d, 'index-manifest.json'), (m) => {
        m.format_version = 1;
      }),
    );
    const e = await refusal(dir);
    expect(e.code).toBe('format_unsupported');
    expect(e.message).toMatch(/manifest format version 1, this build reads 2 and 3; rebuild the release/);
  });

  it('refuses a shard whose part numbers do not match its id or its neighbours', async () => {
    const dir = tampered((d) =>
      editJson<IndexManifest>(join(d, 'index-manifest.json'), (m) => {
        const s = m.indexes[0]?.shards[0];
        if (s) Object.assign(s, { part: 2, parts: 2 });
      }),
    );
    expect((await refusal(dir)).message).toMatch(/is listed as part 2 of 2 of \d{4}-\d{2}, out of order or misnamed/);
  });

  it('refuses manifests whose checksums differ from the files', async () => {
    const dir = tampered((d) =>
      editJson<IndexManifest>(join(d, 'index-manifest.json'), (m) => {
        const f = m.indexes[0]?.shards[0]?.files[1];
        if (f) f.sha256 = '0'.repeat(64);
      }),
    );
    const e = await refusal(dir, { verify: 'full' });
    expect(e.code).toBe('file_corrupt');
  });

  it('refuses a release other than the expected one, saying what to pass', async () => {
    const e = await refusal(good, { expectedIndexVersion: 'rel-0' });
    expect(e.code).toBe('index_version_mismatch');
    expect(e.message).toContain('is "rel-1", expected "rel-0"');
  });

  it('refuses a corrupted shard file when verifying checksums', async () => {
    const dir = tampered((d) => {
      const sa = join(firstShard(d), 'sa.u32');
      const bytes = readFileSync(sa);
      const at = bytes.length >> 1;
      bytes.writeUInt8(bytes.readUInt8(at) ^ 0xff, at);
      writeFileSync(sa, bytes);
    });
    const e = await refusal(dir, { verify: 'full' });
    expect(e.code).toBe('file_corrupt');
    expect(e.message).toMatch(/sa\.u32/);
  });

  it('refuses a truncated file', async () => {
    const dir = tampered((d) => truncateSync(join(firstShard(d), 'text.bin'), 10));
    const e = await refusal(dir);
    expect(e.code).toBe('file_corrupt');
    expect(e.message).toMatch(/text\.bin has 10 bytes, the manifest says \d+ \(truncated or replaced\)/);
  });

  it('refuses a release with a missing year store', async () => {
    const dir = tampered((d) => rmSync(join(d, 'indexes/news/metadata/2019.sqlite')));
    const e = await refusal(dir);
    expect(e.code).toBe('file_missing');
    expect(e.message).toContain('is missing indexes/news/metadata/2019.sqlite');
  });

  it('refuses a folder that is not a release', async () => {
    const dir = join(tmp.dir, 'empty');
    mkdirSync(dir);
    expect((await refusal(dir)).code).toBe('manifest_missing');
  });
});
