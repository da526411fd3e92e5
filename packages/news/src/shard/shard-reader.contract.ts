import { describe, expect, it } from 'vitest';
import type { ShardReader } from './types.ts';

/** Builds a reader over these articles (in memory, or written to disk and opened). */
export type ShardFactory = (docs: readonly Uint8Array[]) => Promise<ShardReader>;

const b = (s: string): Buffer => Buffer.from(s, 'utf8');

async function withShard<T>(make: ShardFactory, docs: string[], use: (r: ShardReader) => T): Promise<T> {
  const reader = await make(docs.map(b));
  try {
    return use(reader);
  } finally {
    reader.close();
  }
}

/** Example-based contract every ShardReader implementation must meet; run over every registered kind by kinds.test.ts. */
export function describeShardReaderContract(name: string, make: ShardFactory): void {
  describe(`${name}: ShardReader contract`, () => {
    it('reports text bytes with separators, article count and pointer width', async () => {
      await withShard(make, ['abc', '', 'é'], (r) => {
        expect(r.stats).toEqual({ textBytes: 4 + 1 + 3, docCount: 3, pointerBytes: 4 });
      });
    });

    it('counts overlapping occurrences and never across two articles', async () => {
      await withShard(make, ['aaa', 'aa', 'xa'], (r) => {
        expect(r.count(b('a'))).toBe(6);
        expect(r.count(b('aa'))).toBe(3);
        expect(r.count(b('aaa'))).toBe(1);
        expect(r.count(b('aaaa'))).toBe(0); // 'aaa' + 'aa' only touch through a separator
        expect(r.count(b('ax'))).toBe(0);
        expect(r.count(b('zzz'))).toBe(0);
      });
    });

    it('finds matches across articles only when the query contains the 0xFF separator', async () => {
      await withShard(make, ['ab', 'cd', 'ab'], (r) => {
        expect(r.count(Buffer.from([0x62, 0xff, 0x63]))).toBe(1); // 'b' 0xFF 'c'
        expect(r.count(Buffer.from([0xff, 0x61]))).toBe(2);
        expect(r.count(Buffer.from([0xff]))).toBe(3);
      });
    });

    it('matches queries longer than a probe read inside long repeats', async () => {
      await withShard(make, ['ab'.repeat(1000), `${'ab'.repeat(300)}c`], (r) => {
        expect(r.count(b(`${'ab'.repeat(300)}c`))).toBe(1);
        expect(r.count(b('ab'.repeat(400)))).toBe(601);
        expect(r.count(b(`b${'ab'.repeat(400)}`))).toBe(600);
        expect(r.count(b('ab'.repeat(1001)))).toBe(0);
      });
    });

    it('answers the empty query with every rank and counts text bytes without separators', async () => {
      await withShard(make, ['abc', 'de'], (r) => {
        expect(r.find(new Uint8Array(0))).toEqual({ lo: 0, hi: 7 });
        expect(r.count(new Uint8Array(0))).toBe(5);
      });
    });

    it('returns adjacent rank intervals for queries in sorted order', async () => {
      await withShard(make, ['banana', 'bandana'], (r) => {
        const an = r.find(b('an'));
        const ana = r.find(b('ana'));
        const and = r.find(b('and'));
        expect(an.hi - an.lo).toBe(4);
        expect(ana).toEqual({ lo: an.lo, hi: an.lo + 3 });
        expect(and).toEqual({ lo: ana.hi, hi: ana.hi + 1 });
        expect(r.find(b('x')).lo).toBe(r.find(b('x')).hi);
      });
    });

    it('locates each rank of a match to its article, byte offset and text position', async () => {
      await withShard(make, ['über uns', 'Grüße aus Köln'], (r) => {
        const { lo, hi } = r.find(b('ü'));
        const found = Array.from({ length: hi - lo }, (_, i) => r.locate(lo + i)).sort((x, y) => x.pos - y.pos);
        expect(found).toEqual([
          { doc: 0, offset: 0, pos: 1 },
          { doc: 1, offset: 2, pos: 10 + 3 },
        ]);
        for (const at of found) expect(r.documentStart(at.doc)).toBe(at.pos - at.offset);
      });
    });

    it('locates a batch of ranks in its order exactly as one by one, the empty batch included', async () => {
      await withShard(make, ['über uns', 'Grüße aus Köln', '', 'ünd'], (r) => {
        const ranks = [...Array.from({ length: r.stats.textBytes }, (_, k) => k).reverse(), 3, 3];
        expect(r.locateMany(ranks)).toEqual(ranks.map((rank) => r.locate(rank)));
        expect(r.locateMany([])).toEqual([]);
      });
    });

    it('writes the text positions of a rank range where asked, as locate gives them', async () => {
      await withShard(make, ['über uns', 'Grüße aus Köln', '', 'ünd'], (r) => {
        const n = r.stats.textBytes;
        const out = new Float64Array(n + 2).fill(-1);
        r.positionsInto(0, n, out, 1);
        expect([...out]).toEqual([-1, ...Array.from({ length: n }, (_, k) => r.locate(k).pos), -1]);
        const narrow = new Uint32Array(n);
        r.positionsInto(0, n, narrow, 0);
        expect([...narrow]).toEqual([...out.subarray(1, n + 1)]);
        r.positionsInto(3, 3, out, out.length);
        expect(() => r.positionsInto(0, n, out, 3)).toThrow(RangeError);
        expect(() => r.positionsInto(-1, 2, out, 0)).toThrow(RangeError);
        expect(() => r.positionsInto(1, n + 1, out, 0)).toThrow(RangeError);
        expect(() => r.positionsInto(2, 1, out, 0)).toThrow(RangeError);
      });
    });

    it('cuts the window at byte distances from the match and shrinks it to character boundaries', async () => {
      await withShard(make, ['Die Station 北京 ist groß'], (r) => {
        const q = b('北京');
        const rank = r.find(q).lo;
        const w = r.window(rank, q, 4);
        // 4 bytes left of the match: 'ion ' ; right: ' ist' fits exactly
        expect(w).toEqual({
          doc: 0,
          docLen: b('Die Station 北京 ist groß').length,
          dispLen: 14,
          needleOffset: 4,
          dispStart: 8,
          text: 'ion 北京 ist',
          spans: [
            ['ion ', null],
            ['北京', '0'],
            [' ist', null],
          ],
        });
        const narrow = r.window(rank, b('ist'), 2); // same match position, other query: only spans change
        expect(narrow.text).toBe('n 北');
        expect(narrow.spans).toEqual([['n 北', null]]);
      });
    });

    it('drops a character the byte window would split instead of returning broken UTF-8', async () => {
      await withShard(make, ['北京北京x'], (r) => {
        const q = b('x');
        const w = r.window(r.find(q).lo, q, 2); // 2 bytes left would start inside the second 京
        expect(w.text).toBe('x');
        expect(w.dispStart).toBe(12);
        expect(w.needleOffset).toBe(0);
      });
    });

    it('marks every non-overlapping occurrence in the window and returns the whole article for Infinity', async () => {
      await withShard(make, ['aaaa b aa'], (r) => {
        const q = b('aa');
        const w = r.window(r.find(q).lo, q, Infinity);
        expect(w.text).toBe('aaaa b aa');
        expect(w.dispStart).toBe(0);
        expect(w.spans).toEqual([
          ['aa', '0'],
          ['aa', '0'],
          [' b ', null],
          ['aa', '0'],
        ]);
        const empty = r.window(0, new Uint8Array(0), Infinity);
        expect(empty.spans).toEqual([['aaaa b aa', null]]);
      });
    });

    it('widens matches of a query that starts inside a character to whole characters', async () => {
      await withShard(make, ['a北b北'], (r) => {
        const q = b('北').subarray(1); // the two continuation bytes of 北
        const { lo, hi } = r.find(q);
        expect(hi - lo).toBe(2);
        const w = r.window(lo, q, 0);
        expect(w.text).toBe('北');
        expect(w.needleOffset).toBe(1);
        const all = r.window(lo, q, Infinity);
        expect(all.spans).toEqual([
          ['a', null],
          ['北', '0'],
          ['b', null],
          ['北', '0'],
        ]);
      });
    });

    it('returns article bytes and lengths, including empty articles', async () => {
      await withShard(make, ['eins', '', 'drei €'], (r) => {
        expect(r.documentBytes(0).toString()).toBe('eins');
        expect(r.documentLength(1)).toBe(0);
        expect(r.documentBytes(1).length).toBe(0);
        expect(r.documentBytes(2).toString()).toBe('drei €');
        expect(r.documentLength(2)).toBe(8);
        for (const doc of [0, 1, 2]) expect(r.documentView(doc).equals(r.documentBytes(doc))).toBe(true);
      });
    });

    it('throws RangeError for ranks and articles out of range', async () => {
      await withShard(make, ['abc', 'de'], (r) => {
        for (const rank of [-1, 7, 1.5, Number.NaN]) {
          expect(() => r.locate(rank)).toThrow(RangeError);
          expect(() => r.locateMany([0, rank])).toThrow(RangeError);
          expect(() => r.window(rank, b('a'), 10)).toThrow(RangeError);
        }
        for (const ctx of [-1, 0.5, Number.NaN]) expect(() => r.window(0, b('a'), ctx)).toThrow(RangeError);
        for (const doc of [-1, 2, 0.5]) {
          expect(() => r.documentBytes(doc)).toThrow(RangeError);
          expect(() => r.documentView(doc)).toThrow(RangeError);
          expect(() => r.documentStart(doc)).toThrow(RangeError);
          expect(() => r.documentLength(doc)).toThrow(RangeError);
        }
      });
    });

    it('finds nothing in a shard without articles', async () => {
      await withShard(make, [], (r) => {
        expect(r.stats).toEqual({ textBytes: 0, docCount: 0, pointerBytes: 4 });
        expect(r.find(b('a'))).toEqual({ lo: 0, hi: 0 });
        expect(r.count(new Uint8Array(0))).toBe(0);
        expect(() => r.locate(0)).toThrow(RangeError);
      });
    });
  });
}
