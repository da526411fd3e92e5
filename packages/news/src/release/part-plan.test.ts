import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { indexKind, MAX_SHARD_TEXT_BYTES } from '../shard/index.ts';
import { defaultSorter, MAX_SORT_TEXT_BYTES } from '../suffix-array/index.ts';
import { BuildError } from './errors.ts';
import {
  diskBytesNeeded,
  MAX_PART_BYTES,
  partShardId,
  planIndexing,
  resolvePartBytes,
  SortBudget,
  sortMemoryBytes,
} from './part-plan.ts';

describe('part planning', () => {
  it('part ids sort chronologically between their period and the next', () => {
    const ids = [
      '2019-03',
      partShardId('2019-03', 0),
      partShardId('2019-03', 1),
      partShardId('2019-03', 998),
      '2019-04',
      '2020',
      partShardId('2020', 0),
    ];
    expect(ids).toEqual([...ids].sort());
    expect(partShardId('2019-03', 0)).toBe('2019-03.p001');
  });

  it('derives the part size from the memory budget and refuses a part size the budget cannot sort, naming both fixes', () => {
    // A part's suffix array is one Buffer (≤ 2^32 bytes on 64-bit Node 20): parts stop at 2^30 text bytes, below the format's limit.
    expect(MAX_PART_BYTES).toBe(Math.min(MAX_SHARD_TEXT_BYTES, MAX_SORT_TEXT_BYTES));
    expect(4 * MAX_PART_BYTES).toBeLessThanOrEqual(2 ** 32);
    expect(resolvePartBytes(64e9)).toBe(MAX_PART_BYTES);
    expect(resolvePartBytes(64e9, undefined, 'compressed')).toBe(MAX_PART_BYTES);
    const fit = resolvePartBytes(2e9);
    expect(sortMemoryBytes(fit)).toBeLessThanOrEqual(2e9);
    expect(sortMemoryBytes(fit + 1)).toBeGreaterThan(2e9);
    const e = (() => {
      try {
        resolvePartBytes(2e9, 1e9);
      } catch (err) {
        return err;
      }
    })() as BuildError;
    expect(e).toBeInstanceOf(BuildError);
    expect(e.message).toMatch(/lower --part-bytes to at most \d+ or raise --memory to \d+(\.\d)?/);
    expect(() => resolvePartBytes(64e9, MAX_PART_BYTES + 1)).toThrow(
      new RegExp(`from 1 to ${MAX_PART_BYTES} \\(the largest part the suffix sort can hold\\)`),
    );
  });

  it('budgets the compressed kind for what it builds beside the sort (brotli blocks, wavelet bits, samples): smaller parts, fewer at once', () => {
    const extra =
      indexKind('compressed').cost.peakBytesPerTextByte(defaultSorter()) -
      indexKind('sa').cost.peakBytesPerTextByte(defaultSorter());
    expect(extra).toBeGreaterThan(0.7);
    expect(sortMemoryBytes(1e9, 'compressed') - sortMemoryBytes(1e9, 'sa')).toBeCloseTo(extra * 1e9, 0);
    // 5.79 GB measured for a 1 GB compressed part with libdivsufsort (BENCHMARKS.md): the plan must not promise less.
    expect(sortMemoryBytes(1e9, 'compressed')).toBeGreaterThan(5.79e9);
    const fit = resolvePartBytes(5e9, undefined, 'compressed');
    expect(fit).toBeLessThan(resolvePartBytes(5e9));
    expect(sortMemoryBytes(fit, 'compressed')).toBeLessThanOrEqual(5e9);
    expect(sortMemoryBytes(fit + 1, 'compressed')).toBeGreaterThan(5e9);
    expect(() => resolvePartBytes(5e9, resolvePartBytes(5e9), 'compressed')).toThrow(
      /needs about \d+\.\d\d GB of RAM to sort/,
    );
    const parts = [
      { id: 'a', textBytes: 600e6 },
      { id: 'b', textBytes: 600e6 },
    ];
    expect(planIndexing(parts, 2 * sortMemoryBytes(600e6), 2, 'sa').maxParallelSorts).toBe(2);
    expect(planIndexing(parts, 2 * sortMemoryBytes(600e6), 2, 'compressed').maxParallelSorts).toBe(1);
  });

  it('plans parallel sorts within the budget and refuses a single part the budget cannot hold, before sorting', () => {
    const parts = [
      { id: 'a', textBytes: 100e6 },
      { id: 'b', textBytes: 100e6 },
      { id: 'c', textBytes: 10e6 },
    ];
    expect(planIndexing(parts, 2 * sortMemoryBytes(100e6), 2).maxParallelSorts).toBe(2);
    expect(planIndexing(parts, sortMemoryBytes(100e6) + 1, 2).maxParallelSorts).toBe(1);
    expect(() => planIndexing([{ id: '2019-03.p004', textBytes: 1e9 }], 2e9, 2)).toThrow(
      /shard 2019-03\.p004 holds one article/,
    );
  });

  it('needs disk for every suffix array of the SA kind, and only for the parts written at once of the compressed kind', () => {
    const parts = Array.from({ length: 19 }, (_, i) => ({ id: partShardId('2024-03', i), textBytes: 2 ** 30 }));
    const sa = planIndexing(parts, 16e9, 2, 'sa');
    expect(diskBytesNeeded(sa, 'sa')).toBeGreaterThan(4 * 19 * 2 ** 30);
    const compressed = planIndexing(parts, 14e9, 2, 'compressed');
    expect(compressed.maxParallelSorts).toBe(2);
    // Two parts' files (0.8 per text byte each) before either removes its text: about 1.8 GB, not 82 GB.
    expect(diskBytesNeeded(compressed, 'compressed')).toBeGreaterThan(2 * 0.72 * 2 ** 30);
    expect(diskBytesNeeded(compressed, 'compressed')).toBeLessThan(2 * 2 ** 30);
  });

  const sortCase = fc.tuple(
    fc.array(fc.integer({ min: 1, max: 1e8 }), { maxLength: 12 }),
    fc.integer({ min: 1, max: 4 }),
    fc.integer({ min: 3e8, max: 2e9 }),
  );
  type Part = { textBytes: number; i: number };

  /** `workers` sorters taking parts until none is left, checking the budget at every take; the parts' order of taking. */
  async function sortAll(budget: SortBudget<Part>, workers: number, memory: number): Promise<number[]> {
    let held = 0;
    let running = 0;
    const seen: number[] = [];
    await Promise.all(
      Array.from({ length: workers }, async () => {
        for (let p = await budget.take(); p; p = await budget.take()) {
          held += sortMemoryBytes(p.textBytes);
          running++;
          expect(running === 1 || held <= memory).toBe(true);
          seen.push(p.i);
          await new Promise((r) => setTimeout(r, 0));
          held -= sortMemoryBytes(p.textBytes);
          running--;
          budget.release(p);
        }
      }),
    );
    return seen;
  }

  it('SortBudget never holds more than the budget (beyond one running sort) and hands out every part once', async () => {
    await fc.assert(
      fc.asyncProperty(sortCase, async ([sizes, workers, memory]) => {
        const seen = await sortAll(
          new SortBudget(
            sizes.map((textBytes, i) => ({ textBytes, i })),
            memory,
          ),
          workers,
          memory,
        );
        expect(seen.sort((a, b) => a - b)).toEqual(sizes.map((_, i) => i));
      }),
      { numRuns: 50 },
    );
  });

  it('an open SortBudget takes parts pushed while sorts run, within the budget, and ends only after close', async () => {
    await fc.assert(
      fc.asyncProperty(sortCase, async ([sizes, workers, memory]) => {
        const budget = new SortBudget<Part>([], memory, 'sa', true);
        const sorting = sortAll(budget, workers, memory);
        for (const [i, textBytes] of sizes.entries()) {
          budget.push({ textBytes, i });
          await new Promise((r) => setTimeout(r, 0));
        }
        budget.close();
        const seen = await sorting;
        expect(seen.sort((a, b) => a - b)).toEqual(sizes.map((_, i) => i));
        expect(() => budget.push({ textBytes: 1, i: -1 })).toThrow(/after close/);
      }),
      { numRuns: 50 },
    );
  });
});
