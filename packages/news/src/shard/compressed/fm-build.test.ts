import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildSuffixArray } from '../../suffix-array/index.ts';
import { COMPRESSED_DEFAULTS } from './format.ts';
import { buildFm, type FmBuilt } from './fm-build.ts';
import { loadFmBuild } from './native-build.ts';

/** Pseudo-random words (no third-party text): 5 MB and more hold more rows than one slice of the FM build. */
function sampleText(bytes: number): Uint8Array {
  const words = ['news', 'archive', 'Bundesregierung', 'oil', 'prices', '東京', 'the', 'search'].map((w) =>
    Buffer.from(`${w} `),
  );
  const out = Buffer.alloc(bytes);
  let seed = 7;
  for (let at = 0; at < bytes;) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    at += words[seed % words.length]!.copy(out, at);
  }
  return out;
}

describe('buildFm', () => {
  it('lets the event loop run during a large part and stops with the abort reason when the build is interrupted', async () => {
    const text = sampleText(6 << 20);
    const sorted = await buildSuffixArray(text);
    const controller = new AbortController();
    const reason = new Error('interrupted by the test');
    // Fires on the event loop's next turn: only a build that yields to the loop can see it before it ends.
    setImmediate(() => controller.abort(reason));
    const built = buildFm(text, new Int32Array(sorted.buffer, sorted.byteOffset, text.length), {
      ...COMPRESSED_DEFAULTS,
      signal: controller.signal,
    });
    await expect(built).rejects.toBe(reason);
  });

  it('gives the event loop turns while it works and finishes when the signal is never raised', async () => {
    const text = sampleText(6 << 20);
    const sorted = await buildSuffixArray(text);
    let turns = 0;
    let counting = true;
    const tick = () => {
      if (counting) {
        turns++;
        setImmediate(tick);
      }
    };
    setImmediate(tick);
    const built = await buildFm(text, new Int32Array(sorted.buffer, sorted.byteOffset, text.length), {
      ...COMPRESSED_DEFAULTS,
      signal: new AbortController().signal,
    });
    counting = false;
    expect(built.parts.textBytes).toBe(text.length);
    // One turn after the BWT slice and at least one in each wavelet pass.
    expect(turns).toBeGreaterThanOrEqual(3);
  });
});

/** Sorts `text` and builds its FM-index with one implementation of the row passes (the SA is consumed: a copy each). */
async function buildWith(
  text: Uint8Array,
  passes: 'native' | 'typescript',
  blockSymbols: number,
  sampleRate: number,
): Promise<FmBuilt> {
  const sorted = await buildSuffixArray(text);
  return buildFm(text, new Int32Array(sorted.buffer, sorted.byteOffset, text.length), {
    blockSymbols,
    sampleRate,
    passes,
  });
}

const bytesOf = (a: ArrayBufferView): Buffer => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

describe('buildFm row passes: the addon (native/fm_build.c) against the TypeScript reference', () => {
  it('writes the same BWT counts, code lengths, wavelet bits, dollar row and samples, byte for byte', async () => {
    const text = fc.oneof(
      fc.uint8Array({ minLength: 0, maxLength: 3000 }),
      fc.array(fc.constantFrom(0, 1, 97, 255), { minLength: 1, maxLength: 3000 }).map((a) => Uint8Array.from(a)),
    );
    await fc.assert(
      fc.asyncProperty(
        text,
        fc.constantFrom(64, 256, 1024),
        fc.constantFrom(1, 3, 64),
        async (t, blockSymbols, sampleRate) => {
          const [c, ts] = [
            await buildWith(t, 'native', blockSymbols, sampleRate),
            await buildWith(t, 'typescript', blockSymbols, sampleRate),
          ];
          expect(c.parts.dollarRank).toBe(ts.parts.dollarRank);
          for (const key of ['counts', 'lengths'] as const)
            expect(bytesOf(c.parts[key]).equals(bytesOf(ts.parts[key])), key).toBe(true);
          expect(bytesOf(c.parts.bits.hybrid).equals(bytesOf(ts.parts.bits.hybrid)), 'bits').toBe(true);
          for (const key of ['chunkStart', 'rowLow', 'values'] as const)
            expect(bytesOf(c.samples[key]).equals(bytesOf(ts.samples[key])), key).toBe(true);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('agrees on a text of several slices with the default block size', async () => {
    const text = sampleText(9 << 20);
    const [c, ts] = [
      await buildWith(text, 'native', COMPRESSED_DEFAULTS.blockSymbols, 64),
      await buildWith(text, 'typescript', COMPRESSED_DEFAULTS.blockSymbols, 64),
    ];
    expect(bytesOf(c.parts.bits.hybrid).equals(bytesOf(ts.parts.bits.hybrid))).toBe(true);
    expect(bytesOf(c.samples.values).equals(bytesOf(ts.samples.values))).toBe(true);
  });

  it('refuses arguments that would write outside the arrays, with a TypeError and nothing written', () => {
    const addon = loadFmBuild();
    if (addon === undefined) throw new Error('the addon has no build passes: rebuild it (npm run postinstall)');
    const text = Uint8Array.from([1, 2, 3, 4]);
    const sa = Int32Array.from([0, 1, 9, 3]); // 9 lies outside the text
    const bwt = new Uint8Array(5);
    const samples = () => [new Uint32Array(2), new Uint8Array(4), new Uint32Array(1), new Float64Array(3)] as const;
    expect(() => addon.fmBwtRows(text, sa, bwt, 0, 4, 1, 2, ...samples())).toThrow(/outside the text/);
    expect(() => addon.fmBwtRows(text, sa, bwt, 0, 5, 1, 2, ...samples())).toThrow(TypeError); // past the text
    const words = new Uint32Array(1);
    // A cursor past the block's words, and a path that walks into a node the tree does not have.
    const lengths = new Uint8Array(256).fill(1);
    const path = new Uint32Array(256).fill(1);
    expect(() =>
      addon.fmFillBlock(
        bwt,
        0,
        5,
        lengths,
        path,
        Int32Array.from([-1]),
        Int32Array.from([-2]),
        Uint32Array.from([40]),
        words,
        0,
      ),
    ).toThrow(/past the block/);
    lengths.fill(2);
    expect(() =>
      addon.fmFillBlock(
        bwt,
        0,
        5,
        lengths,
        path,
        Int32Array.from([-1]),
        Int32Array.from([-2]),
        Uint32Array.from([0]),
        words,
        0,
      ),
    ).toThrow(/leaves its block tree/);
    expect(() => addon.fmBlockCounts(bwt, 5, 4, 0, 3, new Uint16Array(512))).toThrow(TypeError); // 3 blocks of 4 > 5 rows
  });
});
