import { describe, expect, it } from 'vitest';
import { buildSuffixArray } from '../../suffix-array/index.ts';
import { COMPRESSED_DEFAULTS } from './format.ts';
import { buildFm } from './fm-build.ts';

/** Pseudo-random words (no third-party text): 5 MB and more hold more rows than one slice of the FM build. */
function sampleText(bytes: number): Uint8Array {
  const words = ['news', 'archive', 'Bundesregierung', 'oil', 'prices', '東京', 'the', 'search'].map((w) => Buffer.from(`${w} `));
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
    const built = buildFm(text, new Int32Array(sorted.buffer, sorted.byteOffset, text.length), { ...COMPRESSED_DEFAULTS, signal: controller.signal });
    await expect(built).rejects.toBe(reason);
  });

  it('gives the event loop turns while it works and finishes when the signal is never raised', async () => {
    const text = sampleText(6 << 20);
    const sorted = await buildSuffixArray(text);
    let turns = 0;
    let counting = true;
    const tick = () => { if (counting) { turns++; setImmediate(tick); } };
    setImmediate(tick);
    const built = await buildFm(text, new Int32Array(sorted.buffer, sorted.byteOffset, text.length), { ...COMPRESSED_DEFAULTS, signal: new AbortController().signal });
    counting = false;
    expect(built.parts.textBytes).toBe(text.length);
    // One turn after the BWT slice and at least one in each wavelet pass.
    expect(turns).toBeGreaterThanOrEqual(3);
  });
});
