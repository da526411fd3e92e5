/**
 * A background job started by a timer that never overlaps itself: `trigger()` starts `run` unless a run is still in
 * flight, and `current` is the latest run (`idle` before the first), which tests and shutdown await. A run's failure
 * goes to `onFailure`, whose value the run then settles with, so a timer never leaves an unhandled rejection.
 * @example const job = singleFlight(deliverDue, (err) => (log(err), 0), 0); setInterval(job.trigger, 100)
 */
export function singleFlight<T>(
  run: () => Promise<T>,
  onFailure: (err: unknown) => T,
  idle: T,
): { trigger(): void; readonly current: Promise<T> } {
  let current: Promise<T> = Promise.resolve(idle);
  let busy = false;
  return {
    trigger() {
      if (busy) return;
      busy = true;
      current = run()
        .catch(onFailure)
        .finally(() => {
          busy = false;
        });
    },
    get current() {
      return current;
    },
  };
}
