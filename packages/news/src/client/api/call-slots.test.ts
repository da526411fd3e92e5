import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { callSlots } from './call-slots.ts';

describe('callSlots', () => {
  it('never runs more than `slots` calls at once, runs every call, and keeps arrival order', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 4 }),
        fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 20 }),
        async (slots, delays) => {
          const s = callSlots(slots);
          let running = 0;
          let peak = 0;
          const started: number[] = [];
          const results = await Promise.all(
            delays.map((d, i) =>
              s
                .run(async () => {
                  started.push(i);
                  peak = Math.max(peak, ++running);
                  await new Promise((r) => setTimeout(r, d));
                  running--;
                  if (i % 5 === 4) throw new Error(`call ${i}`);
                  return i;
                })
                .catch((e: Error) => e.message),
            ),
          );
          expect(peak).toBeLessThanOrEqual(slots);
          expect(started).toEqual(delays.map((_, i) => i));
          expect(results).toEqual(delays.map((_, i) => (i % 5 === 4 ? `call ${i}` : i)));
        },
      ),
      { numRuns: 40 },
    );
  });
});
