import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createShardWriter, indexCompressedShard, indexShard, openShard } from '../index.ts';
import type { ShardReader } from '../index.ts';
import { readCorpusArticles } from '../shard-reference.ts';

const corpora = fileURLToPath(new URL('../../../../../../shared/corpora', import.meta.url));
const FILES = ['10kgnad-de/10kgnad-de.jsonl.gz', 'fundus-testdata-multi/fundus-testdata-multi.jsonl.gz'];
const available = FILES.every((f) => existsSync(path.join(corpora, f)));

async function build(dir: string, docs: readonly Buffer[], index: (dir: string) => Promise<unknown>): Promise<void> {
  const writer = createShardWriter(dir);
  for (const d of docs) writer.append(d);
  await writer.finish();
  await index(dir);
}

/** Deterministic pseudo-random numbers (mulberry32), so a failure names a reproducible query. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

describe.skipIf(!available)('the compressed kind on real news (10kGNAD + fundus test data) against the SA kind', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'shard-compressed-real-'));
  let docs: Buffer[] = [];
  let text: Buffer;
  let sa: ShardReader;
  let fm: ShardReader;
  let fmDisk: ShardReader;

  beforeAll(async () => {
    docs = FILES.flatMap((f) => readCorpusArticles(corpora, f));
    text = Buffer.concat(docs.flatMap((d) => [Buffer.from([0xff]), d]));
    await build(path.join(root, 'sa'), docs, indexShard);
    await build(path.join(root, 'fm'), docs, indexCompressedShard);
    sa = openShard(path.join(root, 'sa'), 'memory');
    fm = openShard(path.join(root, 'fm'), 'memory');
    fmDisk = openShard(path.join(root, 'fm'), 'disk');
  });
  afterAll(() => {
    for (const r of [sa, fm, fmDisk]) r?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it("gives the SA kind's rank interval for 3,000 text substrings, random byte strings and absent queries", () => {
    const rnd = random(7);
    const queries: Buffer[] = [];
    for (let k = 0; k < 2000; k++) {
      const at = Math.floor(rnd() * text.length);
      queries.push(text.subarray(at, at + 1 + Math.floor(rnd() * 40)));
    }
    for (let k = 0; k < 1000; k++)
      queries.push(Buffer.from(Array.from({ length: 1 + Math.floor(rnd() * 3) }, () => Math.floor(rnd() * 256))));
    for (const q of queries) expect([...q, fm.find(q)]).toEqual([...q, sa.find(q)]);
  });

  it("keeps every byte value 0x00–0xFF and every byte pair present searchable, with the SA kind's intervals", () => {
    for (let c = 0; c < 256; c++) {
      const q = Buffer.from([c]);
      expect([c, fm.find(q)]).toEqual([c, sa.find(q)]);
      const occurs = text.includes(q);
      expect([c, fm.count(q) > 0]).toEqual([c, occurs]);
    }
    const low = Buffer.from([...new Set(text)].sort((a, b) => a - b).slice(0, 2)); // mini's defect: the smallest byte
    expect(fm.count(low.subarray(0, 1))).toBe(sa.count(low.subarray(0, 1)));
    expect(fm.count(low.subarray(0, 1))).toBeGreaterThan(0);
    for (let i = 0; i < 2000; i++) {
      const q = text.subarray(i * 97, i * 97 + 2);
      expect(fm.find(q)).toEqual(sa.find(q));
    }
  });

  it('locates, windows and returns articles exactly as the SA kind, from memory and from disk', () => {
    const rnd = random(11);
    for (let k = 0; k < 300; k++) {
      const rank = Math.floor(rnd() * text.length);
      const at = sa.locate(rank);
      expect(fm.locate(rank)).toEqual(at);
      const q = text.subarray(at.pos, at.pos + 8);
      const w = sa.window(rank, q, 1000);
      expect(fm.window(rank, q, 1000)).toEqual(w);
      expect(fmDisk.window(rank, q, 1000)).toEqual(w);
    }
    for (const doc of [0, 1, 1234, docs.length - 1]) {
      expect(fm.documentBytes(doc).equals(docs[doc] as Buffer)).toBe(true);
      expect(fmDisk.documentLength(doc)).toBe(sa.documentLength(doc));
    }
  });
});
