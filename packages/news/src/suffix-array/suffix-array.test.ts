import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { availableSorters, buildSuffixArray, type SuffixSorter } from './index.ts';
import { NativeAddonMissingError, loadDivsufsort } from './native.ts';

/** The obvious O(n² log n) suffix sort, as the reference. */
function naiveSuffixArray(text: Uint8Array): number[] {
  const buf = Buffer.from(text.buffer, text.byteOffset, text.length);
  return Array.from({ length: text.length }, (_, i) => i).sort((a, b) =>
    Buffer.compare(buf.subarray(a), buf.subarray(b)),
  );
}

async function sortedWith(text: Uint8Array, sorter?: SuffixSorter): Promise<number[]> {
  const sa = await buildSuffixArray(text, undefined, sorter);
  expect(sa.length).toBe(text.length * 4);
  return Array.from({ length: text.length }, (_, r) => sa.readUInt32LE(r * 4));
}

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);
const ALL_BYTES_BUT_FF = Uint8Array.from({ length: 0xff }, (_, i) => i);

/** Articles as the shard stores them: 0xFF before each one. */
const separated = (docs: Uint8Array[]): Uint8Array => Buffer.concat(docs.flatMap((d) => [Uint8Array.of(0xff), d]));

const anyBytes = fc.uint8Array({ maxLength: 400 });
const articleBytes = fc.oneof(
  fc.uint8Array({ max: 0xfe, maxLength: 80 }),
  fc.string({ unit: 'binary', maxLength: 40 }).map(utf8),
  fc.tuple(fc.constantFrom('a', 'ab', 'aab', '北京', 'é'), fc.nat(60)).map(([p, k]) => utf8(p.repeat(k))),
);

// SA-IS is always compiled in; libdivsufsort only when its header was installed. Both run the same properties.
describe.each(availableSorters().map((s) => [s]))('buildSuffixArray with %s', (sorter) => {
  const sortedPointers = (text: Uint8Array): Promise<number[]> => sortedWith(text, sorter);

  it('sorts "banana" like the textbook', async () => {
    expect(await sortedPointers(utf8('banana'))).toEqual([5, 3, 1, 0, 4, 2]);
  });

  it('returns an empty array for empty text', async () => {
    expect((await buildSuffixArray(new Uint8Array(0))).length).toBe(0);
  });

  it('matches a naive sort on random bytes of every value', async () => {
    await fc.assert(
      fc.asyncProperty(anyBytes, async (text) => {
        expect(await sortedPointers(text)).toEqual(naiveSuffixArray(text));
      }),
      { numRuns: 200 },
    );
  });

  it('matches a naive sort on separated articles with multi-byte characters and repeats', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(articleBytes, { maxLength: 8 }), async (docs) => {
        const text = separated([ALL_BYTES_BUT_FF, ...docs]);
        expect(await sortedPointers(text)).toEqual(naiveSuffixArray(text));
      }),
      { numRuns: 150 },
    );
  });

  it('matches a naive sort on longer texts over 2- and 3-letter alphabets (deep SA-IS recursion)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(0x61, 0x62, 0x00), { minLength: 500, maxLength: 3000 }),
        async (bytes) => {
          const text = Uint8Array.from(bytes);
          expect(await sortedPointers(text)).toEqual(naiveSuffixArray(text));
        },
      ),
      { numRuns: 30 },
    );
  });

  it('sorts long repeats and periodic strings', async () => {
    for (const s of ['a'.repeat(5000), 'ab'.repeat(2500), 'abcab'.repeat(900) + 'abca', '北京'.repeat(700)]) {
      const text = utf8(s);
      expect(await sortedPointers(text)).toEqual(naiveSuffixArray(text));
    }
  });

  it('writes into a caller-provided buffer', async () => {
    const text = utf8('mississippi');
    const out = Buffer.alloc(text.length * 4);
    expect(await buildSuffixArray(text, out)).toBe(out);
    expect(Array.from({ length: text.length }, (_, r) => out.readUInt32LE(r * 4))).toEqual(naiveSuffixArray(text));
  });

  it('rejects an output buffer of the wrong size', async () => {
    await expect(buildSuffixArray(utf8('abc'), Buffer.alloc(8))).rejects.toThrow(RangeError);
  });

  it('sorts several texts in parallel without mixing them up', async () => {
    const texts = ['abracadabra', 'x'.repeat(3000), 'zyxwvu'].map(utf8);
    const results = await Promise.all(texts.map((t) => sortedPointers(t)));
    results.forEach((sa, i) => expect(sa).toEqual(naiveSuffixArray(texts[i] as Uint8Array)));
  });

  it('says how to build the addon when it is missing', () => {
    const load = () => loadDivsufsort('/nonexistent/divsufsort_addon.node');
    expect(load).toThrow(NativeAddonMissingError);
    expect(load).toThrow(/npm run postinstall .*needs only a C compiler/);
  });
});
