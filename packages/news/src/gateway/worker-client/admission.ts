/**
 * At most `slots` worker calls in flight; the rest wait here, in arrival order, each until its own deadline.
 *
 * Why not undici's own queue: a request queued inside the pool cannot leave it when its caller gives up, so with a
 * frozen worker the queue only grew, every queued request waited for the ones before it to time out one by one
 * (17 s instead of 2 s), and after the worker came back the pool first worked through requests nobody awaited.
 * Waiting here instead, a caller whose deadline passes leaves the line at once, and the pool never holds more
 * requests than it has connections.
 */
export interface Admission {
  /** null when a slot was free (taken now, no promise on the fast path), else resolves once one is handed over. */
  acquire(deadline: number): Promise<void> | null;
  /** Hands the slot to the oldest waiter still inside its deadline, or frees it. */
  release(): void;
  readonly waiting: number;
}

/** Thrown by `acquire` when the deadline passes before a slot frees up. */
export class AdmissionTimeout extends Error {
  override readonly name = 'AdmissionTimeout';
}

interface Waiter {
  readonly resolve: () => void;
  readonly timer: NodeJS.Timeout;
}

export function createAdmission(slots: number, now: () => number = () => performance.now()): Admission {
  let free = slots;
  // A Set keeps insertion order and deletes an expired waiter in O(1).
  const waiters = new Set<Waiter>();

  return {
    get waiting() {
      return waiters.size;
    },
    acquire(deadline) {
      if (free > 0) {
        free--;
        return null;
      }
      return new Promise<void>((resolve, reject) => {
        const waiter: Waiter = {
          resolve,
          timer: setTimeout(
            () => {
              waiters.delete(waiter);
              reject(new AdmissionTimeout('deadline passed while waiting for a worker connection'));
            },
            Math.max(0, deadline - now()),
          ),
        };
        waiters.add(waiter);
      });
    },
    release() {
      const next = waiters.values().next();
      if (next.done === true) {
        free++;
        return;
      }
      waiters.delete(next.value);
      clearTimeout(next.value.timer);
      next.value.resolve();
    },
  };
}
