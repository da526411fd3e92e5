import { describe, expect, it } from 'vitest';
import { WorkBudget, WorkStopped } from './index.ts';

/** A clock the test moves by hand (as wall and CPU clock: the work runs alone). */
function manualClock(start = 0) {
  let t = start;
  return {
    now: () => t,
    advance: (ms: number) => {
      t += ms;
    },
  };
}

/** Calls `check` enough times for the budget to read the clock at least once. */
function checkAll(work: WorkBudget): void {
  for (let i = 0; i < 64; i++) work.check();
}

function stopOf(fn: () => void): string | null {
  try {
    fn();
    return null;
  } catch (e) {
    if (e instanceof WorkStopped) return e.reason;
    throw e;
  }
}

describe('WorkBudget', () => {
  it('lets work run inside its deadline and CPU limit', () => {
    const clock = manualClock();
    const work = new WorkBudget({ deadline: 100, cpuLimitMs: 50, sliceMs: 5, now: clock.now, cpuNow: clock.now });
    clock.advance(40);
    expect(stopOf(() => checkAll(work))).toBeNull();
    expect(work.spentMs).toBe(40);
  });

  it('counts CPU time, not wall time, against the CPU limit', () => {
    const wall = manualClock();
    const cpu = manualClock();
    const work = new WorkBudget({
      deadline: Infinity,
      cpuLimitMs: 50,
      sliceMs: Infinity,
      now: wall.now,
      cpuNow: cpu.now,
    });
    // A busy machine: 500 ms pass while this process gets 40 ms of CPU.
    wall.advance(500);
    cpu.advance(40);
    expect(stopOf(() => checkAll(work))).toBeNull();
    cpu.advance(11);
    expect(stopOf(() => checkAll(work))).toBe('cpu_limit');
  });

  it('stops work past its deadline', () => {
    const clock = manualClock();
    const work = new WorkBudget({
      deadline: 100,
      cpuLimitMs: Infinity,
      sliceMs: Infinity,
      now: clock.now,
      cpuNow: clock.now,
    });
    clock.advance(100);
    expect(stopOf(() => checkAll(work))).toBe('deadline');
    // Once stopped, every later call throws at once, without waiting for a clock read.
    expect(stopOf(() => work.check())).toBe('deadline');
  });

  it('stops work over its CPU limit, with the limit in the message', () => {
    const clock = manualClock();
    const work = new WorkBudget({
      deadline: Infinity,
      cpuLimitMs: 30,
      sliceMs: Infinity,
      now: clock.now,
      cpuNow: clock.now,
    });
    clock.advance(31);
    expect(() => checkAll(work)).toThrow('more than 30 ms of CPU');
  });

  it('stops cancelled work on the very next call', () => {
    const work = new WorkBudget({ deadline: Infinity, cpuLimitMs: Infinity, sliceMs: Infinity });
    work.cancel();
    expect(stopOf(() => work.check())).toBe('cancelled');
    expect(stopOf(() => work.due())).toBe('cancelled');
  });

  it('is due once a slice is used up, and not before', () => {
    const clock = manualClock();
    const work = new WorkBudget({
      deadline: Infinity,
      cpuLimitMs: Infinity,
      sliceMs: 4,
      now: clock.now,
      cpuNow: clock.now,
    });
    const dueWithin = (calls: number) => Array.from({ length: calls }, () => work.due()).some(Boolean);
    clock.advance(3);
    expect(dueWithin(64)).toBe(false);
    clock.advance(1);
    expect(dueWithin(64)).toBe(true);
  });

  it("does not count the time other requests ran during a pause as this request's CPU", async () => {
    const clock = manualClock();
    const work = new WorkBudget({ deadline: Infinity, cpuLimitMs: 10, sliceMs: 4, now: clock.now, cpuNow: clock.now });
    clock.advance(4);
    const paused = work.pause();
    clock.advance(1000);
    await paused;
    expect(work.spentMs).toBe(4);
    clock.advance(5);
    expect(stopOf(() => checkAll(work))).toBeNull();
    clock.advance(2);
    expect(stopOf(() => checkAll(work))).toBe('cpu_limit');
  });

  it('lets other callbacks run during a pause, and rejects it when cancelled meanwhile', async () => {
    const work = new WorkBudget({ deadline: Infinity, cpuLimitMs: Infinity, sliceMs: 0 });
    let ranMeanwhile = false;
    setImmediate(() => {
      ranMeanwhile = true;
      work.cancel();
    });
    await expect(work.pause()).rejects.toMatchObject({ reason: 'cancelled' });
    expect(ranMeanwhile).toBe(true);
  });

  it('unlimited never stops, and asks to pause only after a second of work', async () => {
    let now = 0;
    const work = WorkBudget.unlimited({ now: () => now });
    now = 999;
    expect(Array.from({ length: 1000 }, () => work.due()).some(Boolean)).toBe(false);
    now = 1000;
    expect(Array.from({ length: 16 }, () => work.due()).some(Boolean)).toBe(true);
    await work.pause();
    expect(work.due()).toBe(false);
    now = 1e12;
    expect(stopOf(() => checkAll(work))).toBeNull();
  });
});
