import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ShardFactory } from './shard-reader.contract.ts';
import { ReferenceShard } from './shard-reference.ts';
import type { ShardReader } from './types.ts';

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);
const isCont = (x: number | undefined): boolean => x !== undefined && (x & 0xc0) === 0x80;

/** Articles that stress the index: every byte value but 0xFF, multi-byte characters, long repeats. */
const rawArticle = fc.uint8Array({ max: 0xfe, maxLength: 60 });
const textArticle = fc
  .oneof(
    fc.string({ unit: 'binary', maxLength: 30 }),
    fc.string({ unit: fc.constantFrom('a', 'b', 'ä', '北', '😀', ' '), maxLength: 40 }),
    fc.tuple(fc.constantFrom('a', 'ab', 'aab', '北京', 'é'), fc.nat(300)).map(([p, k]) => p.repeat(k)),
  )
  .map(utf8);
const ALL_BYTES = Uint8Array.from({ length: 0xff }, (_, i) => i);

/** A query is drawn from the text (start, length), from a small alphabet, or as random bytes. */
const querySeed = fc.oneof(
  fc.record({ from: fc.constant('text' as const), at: fc.nat(), len: fc.integer({ min: 1, max: 12 }) }),
  fc.record({ from: fc.constant('bytes' as const), bytes: fc.uint8Array({ minLength: 1, maxLength: 4 }) }),
  fc.record({
    from: fc.constant('utf8' as const),
    bytes: fc.string({ unit: fc.constantFrom('a', 'b', 'ä', '北'), minLength: 1, maxLength: 3 }).map(utf8),
  }),
);
type QuerySeed = typeof querySeed extends fc.Arbitrary<infer T> ? T : never;

function queryFrom(seed: QuerySeed, text: Buffer): Uint8Array {
  if (seed.from !== 'text') return seed.bytes;
  if (text.length === 0) return Uint8Array.of(0x61);
  const at = seed.at % text.length;
  return text.subarray(at, at + seed.len);
}

async function withReader(
  make: ShardFactory,
  docs: readonly Uint8Array[],
  use: (r: ShardReader) => void,
): Promise<void> {
  const reader = await make(docs);
  try {
    use(reader);
  } finally {
    reader.close();
  }
}

function checkSearch(r: ShardReader, ref: ReferenceShard, q: Uint8Array): void {
  const expected = ref.positions(q);
  const { lo, hi } = r.find(q);
  expect(r.count(q)).toBe(expected.length);
  expect(hi - lo).toBe(expected.length);
  expect(lo).toBe(ref.ranksBelow(q));
  const located = [];
  for (let rank = lo; rank < hi; rank++) {
    const at = r.locate(rank);
    const doc = ref.docAt(at.pos);
    expect(at).toEqual({ doc, offset: Math.max(0, at.pos - ref.docStart(doc)), pos: at.pos });
    // Without a separator in the query, a match lies inside one article.
    if (!q.includes(0xff)) expect(at.pos + q.length).toBeLessThanOrEqual(ref.docEnd(doc));
    located.push(at.pos);
  }
  const ranks = Array.from({ length: hi - lo }, (_, k) => lo + k);
  expect(r.locateMany(ranks)).toEqual(ranks.map((rank) => r.locate(rank)));
  const positions = new Float64Array(hi - lo);
  r.positionsInto(lo, hi, positions, 0);
  expect([...positions]).toEqual(ranks.map((rank) => r.locate(rank).pos));
  expect(located.sort((a, x) => a - x)).toEqual(expected);
}

function checkWindow(
  r: ShardReader,
  ref: ReferenceShard,
  q: Uint8Array,
  rank: number,
  ctx: number,
  validUtf8: boolean,
): void {
  const at = r.locate(rank);
  const w = r.window(rank, q, ctx);
  const doc = ref.docs[at.doc] as Uint8Array;
  const bytes = Buffer.from(doc).subarray(w.dispStart, w.dispStart + w.dispLen);
  expect(w.doc).toBe(at.doc);
  expect(w.docLen).toBe(doc.length);
  expect(w.needleOffset).toBe(at.offset - w.dispStart);
  const needleEnd = Math.min(doc.length, Math.max(at.offset, at.pos - ref.docStart(at.doc) + q.length));
  // The byte window, moved by at most 3 bytes to reach character boundaries; it always holds the match.
  const wantLo = Math.max(0, at.offset - ctx);
  const wantHi = Math.min(doc.length, needleEnd + ctx);
  expect(Math.abs(w.dispStart - wantLo)).toBeLessThanOrEqual(3);
  expect(Math.abs(w.dispStart + w.dispLen - wantHi)).toBeLessThanOrEqual(3);
  expect(w.dispStart).toBeLessThanOrEqual(at.offset);
  expect(w.dispStart + w.dispLen).toBeGreaterThanOrEqual(needleEnd);
  if (ctx === Infinity) expect([w.dispStart, w.dispLen]).toEqual([0, doc.length]);
  if (!validUtf8) return;
  expect(isCont(doc[w.dispStart])).toBe(false);
  expect(isCont(doc[w.dispStart + w.dispLen])).toBe(false);
  expect(Buffer.from(w.text).equals(bytes)).toBe(true);
  expect(w.spans.map(([piece]) => piece).join('')).toBe(w.text);
  for (const [piece, label] of w.spans) {
    expect(piece.length).toBeGreaterThan(0);
    expect([null, '0']).toContain(label);
  }
  const wholeChars = q.length > 0 && !isCont(q[0]) && Buffer.from(Buffer.from(q).toString()).equals(q);
  if (wholeChars) {
    const marked = w.spans.filter(([, label]) => label === '0');
    expect(marked.length).toBe(ReferenceShard.nonOverlapping(bytes, q));
    for (const [piece] of marked) expect(piece).toBe(Buffer.from(q).toString());
  }
}

/** Property tests of count/find/locate/window against the naive ReferenceShard. */
export function describeShardReaderProperties(name: string, make: ShardFactory, numRuns: number): void {
  describe(`${name}: agrees with a naive reference`, () => {
    it('on count, find and locate over articles of any bytes', async () => {
      const docs = fc.array(fc.oneof(rawArticle, textArticle), { maxLength: 6 });
      await fc.assert(
        fc.asyncProperty(docs, fc.array(querySeed, { minLength: 1, maxLength: 6 }), async (someDocs, seeds) => {
          const all = [ALL_BYTES, ...someDocs];
          const ref = new ReferenceShard(all);
          await withReader(make, all, (r) => {
            expect(r.count(new Uint8Array(0))).toBe(ref.text.length - all.length);
            for (const seed of seeds) checkSearch(r, ref, queryFrom(seed, ref.text));
          });
        }),
        { numRuns },
      );
    });

    it('narrows an interval by one byte exactly as a search for the longer prefix (where the kind has narrow)', async () => {
      const docs = fc.array(fc.oneof(rawArticle, textArticle), { maxLength: 6 });
      await fc.assert(
        fc.asyncProperty(
          docs,
          fc.array(fc.tuple(querySeed, fc.integer({ min: 0, max: 0xff })), { minLength: 1, maxLength: 6 }),
          async (someDocs, seeds) => {
            const all = [ALL_BYTES, ...someDocs];
            const ref = new ReferenceShard(all);
            await withReader(make, all, (r) => {
              if (r.narrow === undefined) return;
              for (const [seed, byte] of seeds) {
                const q = queryFrom(seed, ref.text);
                const longer = Uint8Array.from([...q, byte]);
                const narrowed = r.narrow(r.find(q), q.length, byte);
                const direct = r.find(longer);
                expect(narrowed.hi - narrowed.lo).toBe(direct.hi - direct.lo);
                if (direct.hi > direct.lo) expect(narrowed).toEqual(direct);
              }
            });
          },
        ),
        { numRuns },
      );
    });

    it('on windows and spans over UTF-8 articles', async () => {
      const ctx = fc.oneof(fc.nat(24), fc.constant(Infinity));
      await fc.assert(
        fc.asyncProperty(
          fc.array(textArticle, { minLength: 1, maxLength: 5 }),
          fc.array(fc.tuple(querySeed, ctx, fc.nat()), { minLength: 1, maxLength: 5 }),
          async (docs, seeds) => {
            const ref = new ReferenceShard(docs);
            await withReader(make, docs, (r) => {
              for (const [seed, c, pick] of seeds) {
                const q = queryFrom(seed, ref.text);
                const { lo, hi } = r.find(q);
                if (hi > lo) checkWindow(r, ref, q, lo + (pick % (hi - lo)), c, true);
              }
            });
          },
        ),
        { numRuns },
      );
    });

    it('on window bounds over articles of arbitrary bytes', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(rawArticle, { minLength: 1, maxLength: 4 }),
          fc.array(fc.tuple(querySeed, fc.nat(16), fc.nat()), { minLength: 1, maxLength: 5 }),
          async (docs, seeds) => {
            const ref = new ReferenceShard(docs);
            await withReader(make, docs, (r) => {
              for (const [seed, c, pick] of seeds) {
                const q = queryFrom(seed, ref.text);
                const { lo, hi } = r.find(q);
                if (hi > lo) checkWindow(r, ref, q, lo + (pick % (hi - lo)), c, false);
              }
            });
          },
        ),
        { numRuns },
      );
    });
  });
}
