import { afterAll, describe, expect, it } from 'vitest';
import { RruleThread } from './rrule-thread.ts';

const day = (y: number, mo: number, d: number) => Date.UTC(y, mo - 1, d, 10);

describe('RruleThread', () => {
  const thread = new RruleThread(200);
  afterAll(() => thread.close());

  it('expands a rule in the worker', async () => {
    const result = await thread.expand({
      rule: 'FREQ=WEEKLY;COUNT=3',
      dtstart: day(2026, 1, 5),
      until: null,
      before: day(2027, 1, 1),
      max: 10,
    });
    expect(result).toEqual({ kind: 'expanded', dates: [day(2026, 1, 5), day(2026, 1, 12), day(2026, 1, 19)] });
  });

  it('stops a rule over its budget while the event loop keeps turning, then serves the next one', async () => {
    let ticks = 0;
    const timer = setInterval(() => {
      ticks++;
    }, 10);
    // Never matches: rrule alone would walk day by day to the year 9999.
    const stuck = await thread.expand({
      rule: 'FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30;COUNT=2',
      dtstart: day(2026, 1, 5),
      until: null,
      before: day(2126, 1, 1),
      max: 10,
    });
    clearInterval(timer);
    expect(stuck).toEqual({ kind: 'timeout' });
    expect(ticks).toBeGreaterThan(5);
    const next = await thread.expand({
      rule: 'FREQ=DAILY;COUNT=2',
      dtstart: day(2026, 1, 5),
      until: null,
      before: day(2027, 1, 1),
      max: 10,
    });
    expect(next).toEqual({ kind: 'expanded', dates: [day(2026, 1, 5), day(2026, 1, 6)] });
  });

  it('answers a rule rrule cannot build as invalid', async () => {
    const result = await thread.expand({
      rule: 'FREQ=MONTHLY;BYSETPOS=0;BYDAY=MO;COUNT=2',
      dtstart: day(2026, 1, 5),
      until: null,
      before: day(2027, 1, 1),
      max: 10,
    });
    expect(result.kind).toBe('invalid');
  });

  it("counts a first request's budget from the worker's start, not from its spawn", async () => {
    // Starting a thread and loading rrule takes 25-60 ms on a quiet 2-core machine and far more under load; counted
    // in the budget, a 200 ms budget refused this rule in a loaded CI run.
    for (let i = 0; i < 3; i++) {
      const fresh = new RruleThread(60);
      const result = await fresh.expand({
        rule: 'FREQ=WEEKLY;COUNT=2',
        dtstart: day(2026, 1, 5),
        until: null,
        before: day(2027, 1, 1),
        max: 10,
      });
      await fresh.close();
      expect(result).toEqual({ kind: 'expanded', dates: [day(2026, 1, 5), day(2026, 1, 12)] });
    }
  });
});
