import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createTextHasher } from '../corpus/index.ts';
import { clusterStories } from './cluster.ts';
import { createSignScratch, signText, SIGNATURE_SLOTS } from './signature.ts';

const hash = await createTextHasher();

function cluster(texts: readonly string[]): ReturnType<typeof clusterStories> {
  const n = texts.length;
  const textHashes = new Uint32Array(2 * n);
  const signatures = new Uint16Array(n * SIGNATURE_SLOTS);
  const signed = new Uint8Array(n);
  const scratch = createSignScratch();
  texts.forEach((t, i) => {
    const bytes = Buffer.from(t, 'utf8');
    const h = BigInt(hash(bytes));
    textHashes[2 * i] = Number(h >> 32n);
    textHashes[2 * i + 1] = Number(h & 0xffffffffn);
    signed[i] = signText(bytes, signatures, i * SIGNATURE_SLOTS, scratch) ? 1 : 0;
  });
  return clusterStories({ count: n, textHashes, signatures, signed });
}

const words = ['oil', 'prices', 'rose', 'fell', 'Börse', '原油', 'the', 'market', '3.5', 'news'];
const text = fc.array(fc.constantFrom(...words), { minLength: 0, maxLength: 30 }).map((ws) => ws.join(' ') || '!');

describe('clusterStories', () => {
  it('puts exactly the equal texts in one exact story, named by its first article, inside one near story', () => {
    fc.assert(
      fc.property(
        fc.array(text, { minLength: 1, maxLength: 40 }),
        fc.array(fc.nat(), { maxLength: 20 }),
        (distinct, picks) => {
          // Duplicates are drawn from the distinct texts so that equal texts are common.
          const texts = [...distinct, ...picks.map((p) => distinct[p % distinct.length] as string)];
          const { exact, near } = cluster(texts);
          const first = new Map<string, number>();
          texts.forEach((t, i) => {
            if (!first.has(t)) first.set(t, i);
            expect(exact[i]).toBe(first.get(t));
            expect(near[near[i] as number]).toBe(near[i]);
            expect(near[i]).toBe(near[exact[i] as number]);
            expect(near[i] as number).toBeLessThanOrEqual(i);
          });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('joins a copy with a tenth of its words replaced and keeps unrelated texts apart', () => {
    const base = Array.from({ length: 200 }, (_, i) => `w${(i * 7919) % 1009}`);
    const copy = base.map((w, i) => (i % 10 === 3 ? `edit${i}` : w));
    const other = Array.from({ length: 200 }, (_, i) => `w${(i * 104729) % 1013}`);
    const { exact, near } = cluster([base.join(' '), other.join(' '), copy.join(' ')]);
    expect([...exact]).toEqual([0, 1, 2]);
    expect([...near]).toEqual([0, 1, 0]);
  });
});
