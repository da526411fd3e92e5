import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createShardWriter, indexCompressedShard, indexShard, openShard, ShardFormatError } from '../index.ts';
import type { ShardReader } from '../index.ts';
import { CFILES, COMPRESSED_DEFAULTS, COMPRESSED_FORMAT_VERSION, ZSTD_TEXT, type CompressedParams } from './format.ts';
import { BROTLI_FALLBACK, loadZstd, TEXT_CODEC_DEFAULTS } from './text-codec.ts';

const root = mkdtempSync(path.join(tmpdir(), 'text-codec-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Deterministic pseudo-random numbers (mulberry32). */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** News-like articles: a byline and a footer repeated across articles around random words (what the dictionary learns). */
function articles(count: number, seed: number): Buffer[] {
  const rnd = random(seed);
  const words = [
    'Regierung',
    'market',
    '東京',
    'shares',
    'Bürger',
    'election',
    'Ölpreis',
    'court',
    'ニュース',
    'council',
  ];
  return Array.from({ length: count }, (_, d) => {
    const body = Array.from(
      { length: 60 + Math.floor(rnd() * 200) },
      () => words[Math.floor(rnd() * words.length)],
    ).join(' ');
    return Buffer.from(
      `Von unserem Korrespondenten, Berlin (${d}). ${body}. Copyright © Newsroom Press Agency. All rights reserved. Weitere Artikel unter newsroom.example.`,
    );
  });
}

async function build(name: string, docs: readonly Buffer[], params?: CompressedParams): Promise<string> {
  const dir = path.join(root, name);
  const writer = createShardWriter(dir);
  for (const d of docs) writer.append(d);
  await writer.finish();
  await (params
    ? indexCompressedShard(dir, {}, params)
    : name.startsWith('sa')
      ? indexShard(dir)
      : indexCompressedShard(dir));
  return dir;
}

const header = (dir: string): Record<string, unknown> =>
  JSON.parse(readFileSync(path.join(dir, CFILES.header), 'utf8')) as Record<string, unknown>;

describe.skipIf(loadZstd() === undefined)('text codec zstd-dict (format version 4)', () => {
  const docs = articles(1500, 3);
  const params: CompressedParams = {
    blockSymbols: 1 << 12,
    sampleRate: 16,
    textBlockBytes: 4096,
    brotliQuality: 6,
    text: { ...TEXT_CODEC_DEFAULTS, level: 9 },
  };
  let zstdDir: string;
  let brotliDir: string;
  let sa: ShardReader;
  let readers: ShardReader[] = [];

  beforeAll(async () => {
    zstdDir = await build('zstd', docs, params);
    brotliDir = await build('brotli', docs, { ...params, text: BROTLI_FALLBACK });
    sa = openShard(await build('sa', docs), 'memory');
    readers = [openShard(zstdDir, 'memory'), openShard(zstdDir, 'disk'), openShard(brotliDir, 'memory')];
  });
  afterAll(() => {
    for (const r of [sa, ...readers]) r?.close();
  });

  it('is the default: writes text.zst and a trained dictionary, smaller than brotli at the same block size', () => {
    const h = header(zstdDir);
    expect(h).toMatchObject({ formatVersion: COMPRESSED_FORMAT_VERSION, textCodec: 'zstd-dict' });
    expect(readdirSync(zstdDir)).toEqual(expect.arrayContaining([ZSTD_TEXT, CFILES.textDict, CFILES.textBlocks]));
    expect(readdirSync(zstdDir)).not.toContain(CFILES.text);
    expect(statSync(path.join(zstdDir, CFILES.textDict)).size).toBeGreaterThan(1024);
    expect(header(brotliDir)).toMatchObject({ textCodec: 'brotli' });
    // the blocks alone: on this 0.3 MB shard the dictionary does not amortise (on real news it is 0.02 B/B, DESIGN.md)
    expect(statSync(path.join(zstdDir, ZSTD_TEXT)).size).toBeLessThan(statSync(path.join(brotliDir, CFILES.text)).size);
  });

  it('gives every article, window and locate the SA kind gives, in memory and disk mode', () => {
    fc.assert(
      fc.property(fc.nat(docs.length - 1), (doc) => {
        for (const r of readers) expect(r.documentBytes(doc)).toEqual(sa.documentBytes(doc));
      }),
      { numRuns: 200 },
    );
    const q = Buffer.from('Copyright © Newsroom');
    const { lo, hi } = sa.find(q);
    expect(hi - lo).toBe(docs.length);
    fc.assert(
      fc.property(fc.integer({ min: lo, max: hi - 1 }), fc.integer({ min: 1, max: 3000 }), (rank, ctx) => {
        for (const r of readers) {
          expect(r.locate(rank)).toEqual(sa.locate(rank));
          expect(r.window(rank, q, ctx)).toEqual(sa.window(rank, q, ctx));
        }
      }),
      { numRuns: 200 },
    );
  });

  it('reads every article in text order and back again through block buffers recycled by the cache', () => {
    // some 500 blocks of 4 KiB through a cache of 8: each decode after the first 8 reuses an evicted block's buffer
    for (const order of [docs.keys(), [...docs.keys()].reverse()])
      for (const doc of order)
        for (const r of readers) expect(r.documentView(doc).equals(sa.documentView(doc)), `article ${doc}`).toBe(true);
  });

  it('builds tiny shards without a dictionary (too little text to train on) and still reads them back', async () => {
    const tiny = articles(3, 9);
    const dir = await build('tiny', tiny, { ...params, textBlockBytes: 64 });
    // format 8 stores the dictionary as a packed table: its unpacked size is the header's
    expect(header(dir)).toMatchObject({ textCodec: 'zstd-dict', packedTables: { bytes: { textDict: 0 } } });
    const r = openShard(dir, 'memory');
    for (let d = 0; d < tiny.length; d++) expect(r.documentBytes(d)).toEqual(tiny[d]);
    r.close();
  });

  it('writes 128 KiB blocks by default and still reads shards of the earlier 32 KiB default, article for article', async () => {
    const now = await build('default-blocks', docs);
    const before = await build('blocks-32k', docs, { ...COMPRESSED_DEFAULTS, textBlockBytes: 32 << 10 });
    expect(header(now)).toMatchObject({ textBlockBytes: 128 << 10, textCodec: 'zstd-dict' });
    expect(header(before)).toMatchObject({ textBlockBytes: 32 << 10 });
    // several blocks, so articles that straddle a block boundary are read too
    expect(statSync(path.join(now, CFILES.textBlocks)).size / 8 - 1).toBeGreaterThan(3);
    const [a, b] = [openShard(now, 'memory'), openShard(before, 'disk')];
    for (let d = 0; d < docs.length; d++) {
      expect(a.documentBytes(d)).toEqual(docs[d]);
      expect(b.documentBytes(d)).toEqual(docs[d]);
    }
    a.close();
    b.close();
  });

  // Brotli shards of versions 1–3 are read in format.test.ts (storeAsVersion rewrites a version-4 brotli shard).
  it('refuses zstd-dict in a header of version 3', () => {
    const copy = (from: string, name: string, version: number): string => {
      const dir = path.join(root, name);
      cpSync(from, dir, { recursive: true });
      const file = path.join(dir, CFILES.header);
      writeFileSync(file, readFileSync(file, 'utf8').replace(/"formatVersion": \d+/, `"formatVersion": ${version}`));
      return dir;
    };
    const refused = (() => {
      try {
        openShard(copy(zstdDir, 'zstd-v3', 3), 'memory').close();
        return undefined;
      } catch (e) {
        return e;
      }
    })();
    expect(refused).toBeInstanceOf(ShardFormatError);
    expect(String(refused)).toMatch(/textCodec zstd-dict is not supported by format version 3/);
  });

  it('turns a damaged zstd block or dictionary into a ShardFormatError naming the file, never a crash', async () => {
    const dir = await build('damaged', docs.slice(0, 200), params);
    const file = path.join(dir, ZSTD_TEXT);
    const bytes = readFileSync(file);
    bytes.fill(0x5a, 100, 400); // inside the first block's frame
    writeFileSync(file, bytes);
    const r = openShard(dir, 'disk'); // disk mode: no checksum pass over text.zst at open
    let e: unknown;
    try {
      r.documentBytes(0);
    } catch (err) {
      e = err;
    }
    r.close();
    expect(e).toBeInstanceOf(ShardFormatError);
    expect(String(e)).toMatch(/text\.zst.*block 0/);
  });
});
