import { describe, expect, it } from 'vitest';
import { singleFlight } from './single-flight.ts';

describe('singleFlight', () => {
  it('never overlaps a run, starts a new one once the last settled, and settles a failure with onFailure', async () => {
    let runs = 0;
    let release: () => void = () => {};
    const job = singleFlight(
      () => {
        runs++;
        return new Promise<number>((resolve, reject) => {
          release = () => (runs === 2 ? reject(new Error('down')) : resolve(runs));
        });
      },
      (err) => (err instanceof Error && err.message === 'down' ? -1 : -2),
      0,
    );
    await expect(job.current).resolves.toBe(0);
    job.trigger();
    job.trigger();
    expect(runs).toBe(1);
    release();
    await expect(job.current).resolves.toBe(1);
    job.trigger();
    expect(runs).toBe(2);
    release();
    await expect(job.current).resolves.toBe(-1);
  });
});
