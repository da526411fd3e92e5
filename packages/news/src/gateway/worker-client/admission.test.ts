import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AdmissionTimeout, createAdmission } from './admission.ts';

type Op = { kind: 'acquire'; waitMs: number } | { kind: 'release' } | { kind: 'advance'; ms: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('acquire' as const), waitMs: fc.integer({ min: 1, max: 50 }) }),
  fc.constant({ kind: 'release' as const }),
  fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 30 }) }),
);

describe('admission', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('never lets more than `slots` in, hands freed slots to the oldest waiter still in time, and drops the others at their deadline', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 4 }), fc.array(op, { maxLength: 60 }), async (slots, ops) => {
        const admission = createAdmission(slots, () => Date.now());
        // The model: slots held, and the line of waiters (id, absolute deadline) in arrival order.
        let held = 0;
        let line: { id: number; deadline: number }[] = [];
        const outcome = new Map<number, 'granted' | 'timed out'>();
        const expectedOutcome = new Map<number, 'granted' | 'timed out'>();
        const queued: number[] = [];
        for (const [id, o] of ops.entries()) {
          if (o.kind === 'acquire') {
            const wait = admission.acquire(Date.now() + o.waitMs);
            if (held < slots) {
              held++;
              expect(wait).toBeNull();
            } else {
              line.push({ id, deadline: Date.now() + o.waitMs });
              queued.push(id);
              expect(wait).not.toBeNull();
              wait!.then(
                () => outcome.set(id, 'granted'),
                (e: unknown) => {
                  expect(e).toBeInstanceOf(AdmissionTimeout);
                  outcome.set(id, 'timed out');
                },
              );
            }
          } else if (o.kind === 'release') {
            if (held === 0) continue; // only holders release
            admission.release();
            const next = line.shift();
            if (next === undefined) held--;
            else expectedOutcome.set(next.id, 'granted');
          } else {
            await vi.advanceTimersByTimeAsync(o.ms);
            for (const w of line.filter((x) => x.deadline <= Date.now())) expectedOutcome.set(w.id, 'timed out');
            line = line.filter((x) => x.deadline > Date.now());
          }
          await vi.advanceTimersByTimeAsync(0);
          expect(admission.waiting).toBe(line.length);
        }
        // Every request that had to wait was granted, timed out, or still waits, exactly as the model says.
        for (const i of queued) expect(outcome.get(i), `request ${i}`).toBe(expectedOutcome.get(i));
      }),
      { numRuns: 300 },
    );
  });
});
