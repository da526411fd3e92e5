import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createShardWriter, indexShard, openShard } from '../index.ts';
import type { ShardReader } from '../index.ts';
import { ReferenceShard, readCorpusArticles } from '../shard-reference.ts';

const corpora = fileURLToPath(new URL('../../../../../../shared/corpora', import.meta.url));
const FILES = ['10kgnad-de/10kgnad-de.jsonl.gz', 'fundus-testdata-multi/fundus-testdata-multi.jsonl.gz'];

const available = FILES.every((f) => existsSync(path.join(corpora, f)));

describe.skipIf(!available)('a shard of real news (10kGNAD + fundus test data)', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'shard-real-'));
  let docs: Buffer[] = [];
  let ref: ReferenceShard;
  let readers: ShardReader[] = [];

  beforeAll(async () => {
    docs = FILES.flatMap((f) => readCorpusArticles(corpora, f));
    ref = new ReferenceShard(docs);
    const writer = createShardWriter(root);
    for (const d of docs) writer.append(d);
    await writer.finish();
    await indexShard(root);
    readers = [openShard(root, 'memory'), openShard(root, 'disk')];
  });
  afterAll(() => {
    for (const r of readers) r.close();
    rmSync(root, { recursive: true, force: true });
  });

  const queries = [
    'Wien',
    'die',
    'Österreich',
    ' der ',
    'Bundesregierung',
    'the',
    '€',
    '„',
    'e',
    'xyzzy-not-there',
    '. D',
  ];

  it('counts every query as often as a linear scan of the text does', () => {
    for (const q of queries) {
      const expected = ref.positions(Buffer.from(q)).length;
      for (const r of readers) expect([q, r.count(Buffer.from(q))]).toEqual([q, expected]);
    }
  });

  it('locates and windows matches identically in memory and on disk', () => {
    const [mem, disk] = readers as [ShardReader, ShardReader];
    const q = Buffer.from('Österreich');
    const { lo, hi } = mem.find(q);
    expect(disk.find(q)).toEqual({ lo, hi });
    for (let rank = lo; rank < hi; rank += Math.max(1, Math.floor((hi - lo) / 25))) {
      const at = mem.locate(rank);
      expect(disk.locate(rank)).toEqual(at);
      expect(docs[at.doc]?.subarray(at.offset, at.offset + q.length).equals(q)).toBe(true);
      const w = mem.window(rank, q, 100);
      expect(disk.window(rank, q, 100)).toEqual(w);
      expect(w.spans.some(([piece, label]) => label === '0' && piece === 'Österreich')).toBe(true);
    }
  });

  it('returns whole articles byte for byte', () => {
    for (const doc of [0, 1, docs.length - 1]) {
      for (const r of readers) expect(r.documentBytes(doc).equals(docs[doc] as Buffer)).toBe(true);
    }
  });
});
