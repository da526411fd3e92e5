import { describe, expect, it } from 'vitest';
import { scorePlantedCopies } from './planted-quality.fixture.ts';

describe('near stories on planted syndicated copies', () => {
  it('finds copies with 10% of their words replaced at precision ≥ 0.95 and recall ≥ 0.9', async () => {
    // 10 MB of originals: past the 8 MiB signed inline, so the signing thread's batches are scored too.
    const q = await scorePlantedCopies(10_000_000, 0.1);
    expect(q.copies).toBeGreaterThan(1000);
    expect(q.precision).toBeGreaterThanOrEqual(0.95);
    expect(q.recall).toBeGreaterThanOrEqual(0.9);
  });

  it('finds every unedited copy and merges nothing else', async () => {
    const q = await scorePlantedCopies(1_000_000, 0);
    expect(q.foundPairs).toBe(q.truePairs);
    expect(q.recall).toBe(1);
  });
});
