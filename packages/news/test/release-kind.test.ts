import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSyntheticCorpusOptions, writeSyntheticCorpus } from '../src/corpus/index.ts';
import {
  buildRelease,
  MANIFEST_FORMAT_VERSION,
  openRelease,
  ReleaseVerificationError,
  type IndexManifest,
} from '../src/release/index.ts';
import { tempDir } from './support/fixtures.ts';

const tmp = tempDir('release-kind-');
const sa = join(tmp.dir, 'sa');
const fm = join(tmp.dir, 'compressed');

beforeAll(async () => {
  const corpus = join(tmp.dir, 'synthetic.jsonl.gz');
  await writeSyntheticCorpus(corpus, { ...defaultSyntheticCorpusOptions, textBytes: 200_000, years: 1 });
  await buildRelease({ inputs: [corpus], out: sa, indexVersion: 'kind-1' });
  await buildRelease({ inputs: [corpus], out: fm, indexVersion: 'kind-1', kind: 'compressed' });
});
afterAll(() => tmp.cleanup());

const manifest = (dir: string): IndexManifest =>
  JSON.parse(readFileSync(join(dir, 'index-manifest.json'), 'utf8')) as IndexManifest;

/** A copy of the compressed (or `from`) release whose index manifest is changed by `edit`. */
function withManifest(name: string, edit: (m: IndexManifest) => void, from = fm): string {
  const dir = join(tmp.dir, name);
  cpSync(from, dir, { recursive: true });
  const m = manifest(dir);
  edit(m);
  writeFileSync(join(dir, 'index-manifest.json'), JSON.stringify(m));
  return dir;
}

async function refusal(dir: string): Promise<ReleaseVerificationError> {
  const e = await openRelease(dir).then(
    (r) => {
      r.close();
      return undefined;
    },
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ReleaseVerificationError);
  return e as ReleaseVerificationError;
}

describe('news build --kind', () => {
  it('records the kind of every shard in the manifest, and the compressed release is far smaller', () => {
    const [a, b] = [manifest(sa), manifest(fm)];
    expect(b.format_version).toBe(MANIFEST_FORMAT_VERSION);
    expect(a.indexes[0]?.shards.every((s) => s.kind === 'sa')).toBe(true);
    expect(b.indexes[0]?.shards.every((s) => s.kind === 'compressed')).toBe(true);
    expect(b.indexes[0]?.shards.map((s) => s.shard_id)).toEqual(a.indexes[0]?.shards.map((s) => s.shard_id));
    const bytes = (m: IndexManifest): number => m.indexes[0]?.totals.index_bytes ?? 0;
    expect(bytes(b)).toBeLessThan(bytes(a) / 3);
  });

  it('opens both kinds with full verification and answers the same counts, ranks and articles', async () => {
    const [ra, rb] = await Promise.all([
      openRelease(sa, { verify: 'full' }),
      openRelease(fm, { verify: 'full', mode: 'disk' }),
    ]);
    try {
      const sa0 = ra.indexes.get('news')?.shards ?? [];
      const fm0 = rb.indexes.get('news')?.shards ?? [];
      expect(fm0.length).toBe(sa0.length);
      sa0.forEach((s, i) => {
        const c = fm0[i]!;
        for (const q of ['the', 'a', ' ', 'zz', 'Berlin'])
          expect(c.reader.find(Buffer.from(q))).toEqual(s.reader.find(Buffer.from(q)));
        expect(c.reader.documentBytes(0).equals(s.reader.documentBytes(0))).toBe(true);
      });
    } finally {
      ra.close();
      rb.close();
    }
  });

  it('refuses an unknown kind with a message naming it and the kinds this build reads', async () => {
    const e = await refusal(
      withManifest('unknown', (m) => {
        m.indexes[0]!.shards[0]!.kind = 'fm-mini';
      }),
    );
    expect(e.code).toBe('format_unsupported');
    expect(e.message).toContain('index kind "fm-mini"; this build reads kinds sa, compressed');
  });

  it('refuses a manifest whose kind differs from the shard on disk', async () => {
    // An SA shard listed as compressed, format version 1 (which both kinds read): only the kind differs.
    const e = await refusal(
      withManifest(
        'mixed',
        (m) => {
          m.indexes[0]!.shards[0]!.kind = 'compressed';
        },
        sa,
      ),
    );
    expect(e.code).toBe('file_corrupt');
    expect(e.message).toContain('is of kind sa on disk, the manifest says compressed');
  });

  it('refuses an unknown kind option before reading any input', async () => {
    await expect(
      buildRelease({ inputs: [tmp.dir], out: join(tmp.dir, 'x'), indexVersion: 'k', kind: 'fm' as never }),
    ).rejects.toThrow('kind "fm" must be one of sa, compressed');
  });
});
