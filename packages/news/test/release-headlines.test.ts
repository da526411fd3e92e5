import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildRelease,
  openRelease,
  ReleaseVerificationError,
  type IndexManifest,
  type MetadataManifest,
  type OpenRelease,
  type ReleaseIndex,
} from '../src/release/index.ts';
import { SHARD_KINDS } from '../src/shard/index.ts';
import { article, tempDir, writeJsonl } from './support/fixtures.ts';

const tmp = tempDir('release-headlines-');
afterAll(() => tmp.cleanup());

// Three months, a title missing and one empty, multi-byte titles; input order not chronological.
const records = Array.from({ length: 40 }, (_, n) =>
  article(n, `2020-0${1 + (n % 3)}-0${1 + (n % 9)}`, {
    title: n === 7 ? null : n === 8 ? '' : `Überschrift ${n}: Ölpreise 東京 ${'x'.repeat(n % 5)}`,
  }),
);
const input = (): string => writeJsonl(join(tmp.dir, 'in.jsonl'), records);
const index = (r: OpenRelease): ReleaseIndex => r.indexes.get('news') as ReleaseIndex;
const manifest = (dir: string): IndexManifest =>
  JSON.parse(readFileSync(join(dir, 'index-manifest.json'), 'utf8')) as IndexManifest;

/** Every shard's headline d equals the stored title of its article (empty without one). */
function expectHeadlinesMatchMetadata(release: OpenRelease): number {
  const ix = index(release);
  let seen = 0;
  for (const s of ix.shards) {
    expect(s.titles?.stats.docCount).toBe(s.reader.stats.docCount);
    for (let d = 0; d < s.reader.stats.docCount; d++) {
      expect(s.titles?.documentBytes(d).toString()).toBe(ix.metadata(s.year)?.get(s.docBase + d)?.title ?? '');
      seen++;
    }
  }
  return seen;
}

describe('headline index in releases', () => {
  let good = '';
  beforeAll(async () => {
    good = join(tmp.dir, 'good');
    await buildRelease({ inputs: [input()], out: good, indexVersion: 'h1' });
  });

  for (const kind of SHARD_KINDS) {
    for (const period of ['month', 'year'] as const) {
      it(`maps headline d to article d in every ${kind} shard, by ${period} and cut into parts`, async () => {
        const out = join(tmp.dir, `${kind}-${period}`);
        await buildRelease({ inputs: [input()], out, indexVersion: 'h1', kind, period, partBytes: 400 });
        const m = manifest(out);
        expect(m.format_version).toBe(3);
        const shards = m.indexes[0]?.shards ?? [];
        expect(shards.some((s) => s.parts > 1)).toBe(true);
        for (const s of shards) expect(s.titles).toMatchObject({ dir: `${s.dir}/titles`, doc_count: s.doc_count });
        // Headline indexes open from disk by default, also beside shards in memory; 'memory' holds them in RAM.
        for (const headlineMode of ['disk', 'memory'] as const) {
          const release = await openRelease(out, { verify: 'full', mode: 'memory', headlineMode });
          expect(expectHeadlinesMatchMetadata(release)).toBe(records.length);
          release.close();
        }
        rmSync(out, { recursive: true });
      });
    }
  }

  it('counts the headline files in the index bytes of the manifest totals', () => {
    const ix = manifest(good).indexes[0];
    const bytes = (ix?.shards ?? []).reduce(
      (n, s) => n + [...s.files, ...(s.titles?.files ?? [])].reduce((k, f) => k + f.bytes, 0),
      0,
    );
    expect(ix?.totals.index_bytes).toBe(bytes);
    expect(ix?.shards.every((s) => (s.titles?.files.length ?? 0) > 0)).toBe(true);
  });

  it('opens a release of manifest format 2 (built before headlines) with no headline index', async () => {
    const old = join(tmp.dir, 'v2');
    cpSync(good, old, { recursive: true });
    const m = manifest(old);
    m.format_version = 2;
    for (const s of m.indexes[0]?.shards ?? []) delete s.titles;
    writeFileSync(join(old, 'index-manifest.json'), JSON.stringify(m));
    const meta = JSON.parse(readFileSync(join(old, 'metadata-manifest.json'), 'utf8')) as MetadataManifest;
    meta.format_version = 2;
    writeFileSync(join(old, 'metadata-manifest.json'), JSON.stringify(meta));
    const release = await openRelease(old, { verify: 'full' });
    expect(index(release).shards.every((s) => s.titles === undefined)).toBe(true);
    release.close();
  });

  const tampered = (name: string, edit: (dir: string, m: IndexManifest) => void): string => {
    const dir = join(tmp.dir, name);
    cpSync(good, dir, { recursive: true });
    const m = manifest(dir);
    edit(dir, m);
    writeFileSync(join(dir, 'index-manifest.json'), JSON.stringify(m));
    return dir;
  };
  const refusal = async (dir: string, verify: 'sizes' | 'full' = 'full'): Promise<ReleaseVerificationError> => {
    const e = await openRelease(dir, { verify }).then(
      (r) => {
        r.close();
        return undefined;
      },
      (err: unknown) => err,
    );
    expect(e).toBeInstanceOf(ReleaseVerificationError);
    return e as ReleaseVerificationError;
  };

  it('refuses a release whose headline file is missing, naming it', async () => {
    const dir = tampered('missing', (d, m) => {
      const t = m.indexes[0]?.shards[0]?.titles;
      rmSync(join(d, `${t?.dir}/${t?.files[0]?.name}`));
    });
    const e = await refusal(dir, 'sizes');
    expect(e.code).toBe('file_missing');
    expect(e.message).toMatch(/shards\/2020-01\/titles\//);
  });

  it('refuses a headline index whose digest or article count differs from the manifest', async () => {
    const digest = await refusal(
      tampered('digest', (_d, m) => {
        const f = m.indexes[0]?.shards[0]?.titles?.files[0];
        if (f) f.sha256 = '0'.repeat(64);
      }),
    );
    expect(digest.code).toBe('file_corrupt');
    const count = await refusal(
      tampered('count', (_d, m) => {
        const t = m.indexes[0]?.shards[0]?.titles;
        if (t) t.doc_count += 1;
      }),
    );
    expect(count.message).toMatch(/shard 2020-01 has \d+ articles but \d+ headlines/);
  });
});
