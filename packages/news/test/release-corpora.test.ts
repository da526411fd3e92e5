import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTextHasher } from '../src/corpus/index.ts';
import { openRelease, type OpenRelease, type ReleaseIndex } from '../src/release/index.ts';
import { BucketScan, bruteCount, corpusFiles, readJsonlGz, seededRandom } from './support/corpora.ts';
import { sharedRelease } from './support/shared-release.ts';

/** One reference shard: the articles of one crawl month in input order, each preceded by 0xFF, like the index. */
interface RefShard {
  year: string;
  docs: Buffer[];
  text: Buffer;
}

const files = corpusFiles();
let release: OpenRelease;
let index: ReleaseIndex;
const ref = new Map<string, RefShard>();
const byCorpus = new Map<string, string[]>();
/** All reference shards concatenated in shard order, with each shard's start offset, scanned as one text. */
let scan: BucketScan;
const shardStarts: { id: string; start: number; end: number }[] = [];

beforeAll(async () => {
  // Month shards are the builder's default: the release every real-corpora suite shares.
  const built = await sharedRelease({ inputs: files });
  release = await openRelease(built.dir, { mode: 'memory', expectedIndexVersion: built.version });
  index = release.indexes.get('news') as ReleaseIndex;
  const parts = new Map<string, Buffer[]>();
  for (const file of files) {
    const texts: string[] = [];
    for (const rec of readJsonlGz(file)) {
      const shardId = String(rec['warc_date']).slice(0, 7);
      const doc = Buffer.from(String(rec['text']), 'utf8');
      if (!ref.has(shardId)) ref.set(shardId, { year: shardId.slice(0, 4), docs: [], text: Buffer.alloc(0) });
      ref.get(shardId)?.docs.push(doc);
      if (!parts.has(shardId)) parts.set(shardId, []);
      parts.get(shardId)?.push(Buffer.from([0xff]), doc);
      texts.push(String(rec['text']));
    }
    byCorpus.set(file, texts);
  }
  for (const [id, shard] of ref) shard.text = Buffer.concat(parts.get(id) ?? []);
  let offset = 0;
  for (const id of [...ref.keys()].sort()) {
    const len = (ref.get(id) as RefShard).text.length;
    shardStarts.push({ id, start: offset, end: offset + len });
    offset += len;
  }
  scan = new BucketScan(Buffer.concat(shardStarts.map((s) => (ref.get(s.id) as RefShard).text)));
}, 120_000);

afterAll(() => {
  release?.close();
});

/** ≥ 300 deterministic queries: drawn from every corpus (short and long), fixed words, cross-article and absent strings. */
function makeQueries(): string[] {
  const random = seededRandom(20240601);
  const queries: string[] = [
    'the',
    'said',
    'Reuters',
    ' und ',
    'Österreich',
    'für',
    'ß',
    'の',
    'ニュース',
    '東京',
    '。',
    'e',
    'mln dlrs',
    'Die',
    '\n',
  ];
  for (const [, texts] of byCorpus) {
    for (let i = 0; i < 60; i++) {
      const text = texts[Math.floor(random() * texts.length)] as string;
      const chars = [...text];
      const len =
        i < 20
          ? 1 + Math.floor(random() * 4)
          : i < 50
            ? 5 + Math.floor(random() * 40)
            : 100 + Math.floor(random() * 400);
      const start = Math.floor(random() * Math.max(1, chars.length - len));
      queries.push(chars.slice(start, start + len).join(''));
    }
    // Strings that would span two consecutive articles: the end of one and the start of the next.
    for (let i = 0; i < 8; i++) {
      const k = Math.floor(random() * (texts.length - 1));
      queries.push([...(texts[k] as string)].slice(-6).join('') + [...(texts[k + 1] as string)].slice(0, 6).join(''));
    }
    // Absent strings: a drawn string with characters no corpus uses at that place.
    for (let i = 0; i < 8; i++) {
      const chars = [...(texts[Math.floor(random() * texts.length)] as string)];
      const start = Math.floor(random() * Math.max(1, chars.length - 20));
      queries.push(
        `${chars.slice(start, start + 10).join('')}\u2603qq\u{1F980}${chars.slice(start + 10, start + 14).join('')}`,
      );
    }
  }
  return queries;
}

describe('a release built from all four real corpora with monthly shards', () => {
  it('has one shard per crawl month, in chronological order, with the reference article counts', () => {
    expect(index.shards.map((s) => s.shardId)).toEqual([...ref.keys()].sort());
    for (const s of index.shards) expect(s.reader.stats.docCount).toBe(ref.get(s.shardId)?.docs.length);
  });

  it('counts every query exactly like a brute-force scan, per shard and in total', async () => {
    const queries = makeQueries();
    expect(queries.length).toBeGreaterThanOrEqual(300);
    // The bucketed reference agrees with a plain indexOf scan (checked on a sample, the scan is slow).
    for (const q of queries.filter((_, i) => i % 25 === 0)) {
      expect(scan.occurrences(Buffer.from(q)).length).toBe(bruteCount(scan.text, Buffer.from(q)));
    }
    let found = 0;
    for (const [i, q] of queries.entries()) {
      // Yield now and then: a long synchronous loop starves the test runner's worker messages.
      if (i % 20 === 0) await new Promise((r) => setImmediate(r));
      const needle = Buffer.from(q, 'utf8');
      // Occurrences never cross shards: every shard text starts with 0xFF, which no UTF-8 query contains.
      const perShard = new Map<string, number>();
      let k = 0;
      for (const p of scan.occurrences(needle)) {
        while (p >= (shardStarts[k] as { end: number }).end) k++;
        const id = (shardStarts[k] as { id: string }).id;
        perShard.set(id, (perShard.get(id) ?? 0) + 1);
      }
      let total = 0;
      let expectedTotal = 0;
      for (const s of index.shards) {
        const expected = perShard.get(s.shardId) ?? 0;
        const got = s.reader.count(needle);
        if (got !== expected)
          expect({ query: q, shard: s.shardId, got }).toEqual({ query: q, shard: s.shardId, got: expected });
        total += got;
        expectedTotal += expected;
      }
      expect(total).toBe(expectedTotal);
      if (total > 0) found++;
    }
    // Most queries are drawn from the texts, so most are found; absent ones are not.
    expect(found).toBeGreaterThan(queries.length * 0.7);
    expect(found).toBeLessThan(queries.length);
  }, 180_000);

  it('locates ranks at positions that hold the query, inside the right article, with valid UTF-8 windows', async () => {
    const hash = await createTextHasher();
    const decoder = new TextDecoder('utf-8', { fatal: true });
    const queries = makeQueries().filter((_, i) => i % 3 === 0);
    let checked = 0;
    for (const [i, q] of queries.entries()) {
      if (i % 20 === 0) await new Promise((r) => setImmediate(r));
      const needle = Buffer.from(q, 'utf8');
      for (const s of index.shards) {
        const { lo, hi } = s.reader.find(needle);
        const refShard = ref.get(s.shardId) as RefShard;
        for (const rank of hi > lo ? [lo, Math.floor((lo + hi) / 2), hi - 1] : []) {
          const loc = s.reader.locate(rank);
          expect(refShard.text.subarray(loc.pos, loc.pos + needle.length).equals(needle)).toBe(true);
          const doc = refShard.docs[loc.doc] as Buffer;
          expect(doc.subarray(loc.offset, loc.offset + needle.length).equals(needle)).toBe(true);
          const w = s.reader.window(rank, needle, 1000);
          const shown = doc.subarray(w.dispStart, w.dispStart + w.dispLen);
          expect(decoder.decode(shown)).toBe(w.text);
          expect(w.spans.map(([t]) => t).join('')).toBe(w.text);
          // The article's metadata row (doc_ix = shard docBase + shard-local doc) describes this very text.
          expect(index.metadata(s.year)?.get(s.docBase + loc.doc)?.text_xxhash64).toBe(hash(doc));
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(200);
  }, 180_000);

  it('numbers each year from 0 across its monthly shards, in (month, input order)', () => {
    const years = new Map<string, number>();
    for (const s of index.shards) {
      expect(s.docBase).toBe(years.get(s.year) ?? 0);
      years.set(s.year, s.docBase + s.reader.stats.docCount);
    }
    for (const [year, count] of years) expect(index.metadata(year)?.docCount).toBe(count);
    expect(index.hasCountryAttribution).toBe(false);
  });
});
