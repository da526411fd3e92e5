import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildShardInMemory } from '../shard/index.ts';
import { isWholeWordAt, isWholeWordAtOffset } from './word-boundary.ts';

// Neighbours of every width: ASCII letters and digits, 2-, 3- and 4-byte letters, a combining mark, punctuation,
// spaces, and a lone continuation byte or cut lead byte (malformed UTF-8 next to a match).
const PIECES = [
  'ab',
  'a',
  '7',
  'é',
  'Ж',
  '東',
  '𝒜',
  '\u0301',
  ' ',
  ', ',
  "'",
  '-',
  '\u3001',
  Buffer.from([0x80]),
  Buffer.from([0xe6, 0x9d]),
] as const;

const bytesOf = (p: (typeof PIECES)[number]) => (typeof p === 'string' ? Buffer.from(p) : p);

describe('isWholeWordAtOffset', () => {
  it("answers as isWholeWordAt for every occurrence, reading the article's bytes instead of the shard's", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(fc.constantFrom(...PIECES), { maxLength: 20 }), { minLength: 1, maxLength: 4 }),
        fc.constantFrom('ab', 'a', 'é', '東', '7'),
        async (articles, query) => {
          const docs = articles.map((a) => Buffer.concat(a.map(bytesOf)));
          const reader = await buildShardInMemory(docs);
          const q = Buffer.from(query);
          const { lo, hi } = reader.find(q);
          for (let rank = lo; rank < hi; rank++) {
            const loc = reader.locate(rank);
            expect(isWholeWordAtOffset(reader.documentBytes(loc.doc), loc.offset, q.length)).toBe(
              isWholeWordAt(reader, rank, q),
            );
          }
          reader.close();
        },
      ),
      { numRuns: 200 },
    );
  });
});
