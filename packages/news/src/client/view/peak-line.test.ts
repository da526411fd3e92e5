import { describe, expect, it } from 'vitest';
import { peakLine } from './peak-line.ts';

const periods = [
  { period: '2020-01', occurrences: 3 },
  { period: '2020-02', occurrences: 0 },
  { period: '2020-03', occurrences: 1234 },
];
/** A sampled estimate scales its counts, so they need not be whole. */
const sampled = periods.map((p) => ({ ...p, occurrences: p.occurrences * 1.25 }));

describe('peakLine', () => {
  it('names the months with occurrences and the busiest one', () => {
    expect(peakLine(periods, false, true)).toBe('Found in 2 crawl months; most in 2020-03 (1,234).');
  });
  it('says when the figures come from a sample, and speaks of crawl years for yearly shards', () => {
    expect(peakLine(sampled, true, false)).toBe(
      'Found in at least 2 crawl years; most in 2020-03 (≈ 1,543, from a sample).',
    );
  });
  it('says nothing when nothing occurs', () => {
    expect(peakLine([{ period: '2020-01', occurrences: 0 }], false, true)).toBeNull();
  });
});
