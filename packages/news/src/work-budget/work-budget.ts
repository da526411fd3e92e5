/**
 * One request's work on the worker, as the loops doing it see it: when its answer stops being wanted (the
 * gateway's deadline, a cancel) and how much CPU it may use. Loops call `check()` (cheap: reads the clock every
 * few calls) and, where they can wait, `if (work.due()) await work.pause()` so other requests run between slices
 * of a long one. Engine level: no HTTP, no protocol.
 */

/** Why work stopped: nobody waits any more (`deadline`, `cancelled`) or it used its CPU allowance (`cpu_limit`). */
export type WorkStop = 'deadline' | 'cancelled' | 'cpu_limit';

export class WorkStopped extends Error {
  override readonly name = 'WorkStopped';
  constructor(
    readonly reason: WorkStop,
    readonly cpuLimitMs: number,
  ) {
    super(
      reason === 'cpu_limit'
        ? `the request needed more than ${cpuLimitMs} ms of CPU`
        : `the request was ${reason === 'deadline' ? 'past its deadline' : 'cancelled'}`,
    );
  }
}

export interface WorkBudgetOptions {
  /** `performance.now()` time after which nobody waits for the answer. */
  readonly deadline: number;
  /** CPU milliseconds the request may use, its slices added up (other requests' work between them is not counted). */
  readonly cpuLimitMs: number;
  /** Longest run between two pauses, in wall-clock ms: about what a cheap request waits behind an expensive one. */
  readonly sliceMs: number;
  /** Wall clock in ms (deadline, slices); default `performance.now`. */
  readonly now?: () => number;
  /**
   * The process's CPU time in ms; default `process.cpuUsage`. CPU rather than wall time, so that a query is refused
   * for what it costs, not for how busy the machine was meanwhile.
   */
  readonly cpuNow?: () => number;
}

export const defaultWorkBudgetOptions: Omit<WorkBudgetOptions, 'deadline'> = { cpuLimitMs: Infinity, sliceMs: 4 };

/** Calls of `check`/`due` between clock reads: a clock read costs ~40 ns, a rank tested at least ~1 µs. */
const CLOCK_EVERY = 16;

/** The unlimited budget's slice: long enough to cost nothing, short enough for timers and IPC to keep running. */
const UNLIMITED_SLICE_MS = 1000;

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

function processCpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/**
 * @example
 * const work = new WorkBudget({ deadline: performance.now() + 2000, cpuLimitMs: 1500, sliceMs: 4 });
 * for (const rank of ranks) { if (work.due()) await work.pause(); test(rank); }
 */
export class WorkBudget {
  readonly #now: () => number;
  readonly #cpuNow: () => number;
  readonly #deadline: number;
  readonly #cpuLimitMs: number;
  readonly #sliceMs: number;
  #sliceStart: number;
  #sliceCpuStart: number;
  /** CPU of the slices before the current one. */
  #spentBefore = 0;
  #calls = 0;
  #stop: WorkStop | null = null;

  constructor(opts: WorkBudgetOptions) {
    this.#now = opts.now ?? (() => performance.now());
    // Without a limit nobody asks for the CPU used: skip its system call.
    this.#cpuNow = opts.cpuLimitMs === Infinity ? () => 0 : (opts.cpuNow ?? processCpuMs);
    this.#deadline = opts.deadline;
    this.#cpuLimitMs = opts.cpuLimitMs;
    this.#sliceMs = opts.sliceMs;
    this.#sliceStart = this.#now();
    this.#sliceCpuStart = this.#cpuNow();
  }

  /**
   * No deadline and no CPU limit, for callers outside the worker (tests, the CLI): asks to pause once a second of
   * work, so that wherever the caller pauses, the process's own timers and messages still run meanwhile (a CLI's
   * progress and signals, a test runner's RPC). A turn costs microseconds per second of work.
   */
  static unlimited(opts: Pick<WorkBudgetOptions, 'now'> = {}): WorkBudget {
    return new WorkBudget({ deadline: Infinity, cpuLimitMs: Infinity, sliceMs: UNLIMITED_SLICE_MS, ...opts });
  }

  /** The answer is no longer wanted (the client went away); the next `check`, `due` or `pause` throws. */
  cancel(): void {
    this.#stop ??= 'cancelled';
  }

  /** CPU milliseconds used so far (the current slice included); 0 without a CPU limit. */
  get spentMs(): number {
    return this.#spentBefore + (this.#cpuNow() - this.#sliceCpuStart);
  }

  /** Throws `WorkStopped` once the work must stop; reads the clock only every few calls. */
  check(): void {
    if (this.#stop !== null) throw new WorkStopped(this.#stop, this.#cpuLimitMs);
    if (++this.#calls % CLOCK_EVERY === 0) this.#sliceElapsed(this.#now());
  }

  /** Whether the current slice is used up, so the caller should `await pause()`; throws like `check`. */
  due(): boolean {
    if (this.#stop !== null) throw new WorkStopped(this.#stop, this.#cpuLimitMs);
    if (++this.#calls % CLOCK_EVERY !== 0) return false;
    return this.#sliceElapsed(this.#now()) >= this.#sliceMs;
  }

  /** Ends the slice, lets the event loop serve other requests, then starts the next slice (or throws `WorkStopped`). */
  async pause(): Promise<void> {
    this.#sliceElapsed(this.#now());
    this.#spentBefore += this.#cpuNow() - this.#sliceCpuStart;
    await nextTurn();
    this.#sliceStart = this.#now();
    this.#sliceCpuStart = this.#cpuNow();
    // Cancelled or past the deadline while others ran.
    this.#sliceElapsed(this.#sliceStart);
  }

  /** Checks the limits at wall time `now`; returns the slice's length so far. */
  #sliceElapsed(now: number): number {
    if (this.#stop === null) {
      if (now >= this.#deadline) this.#stop = 'deadline';
      else if (this.spentMs > this.#cpuLimitMs) this.#stop = 'cpu_limit';
      else return now - this.#sliceStart;
    }
    throw new WorkStopped(this.#stop, this.#cpuLimitMs);
  }
}
