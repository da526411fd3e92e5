// rrule runs synchronously and, for a rule that matches rarely or never, period by period up to the year 9999: on
// the main thread that froze every request (issue 23). Here it runs in one worker thread, one request at a time; a
// request over its budget terminates the worker (the only way to stop synchronous code) and the next starts a new one.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** What the worker expands: an RRULE value over floating dates (epoch ms whose UTC fields are wall times). */
export interface ExpansionRequest {
  readonly rule: string;
  readonly dtstart: number;
  readonly until: number | null;
  /** The horizon: dates after it are not wanted. */
  readonly before: number;
  /** Stop after this many dates plus one (one more shows the limit was passed). */
  readonly max: number;
}

type ToWorker = ExpansionRequest & { readonly id: number };
type FromWorker =
  | { readonly kind: 'ready' }
  | { readonly kind: 'expanded'; readonly id: number; readonly dates: number[] }
  | { readonly kind: 'invalid'; readonly id: number; readonly message: string };

/** The outcome of one request, as the caller handles it. */
export type ExpansionResult =
  | { readonly kind: 'expanded'; readonly dates: readonly number[] }
  | { readonly kind: 'invalid'; readonly message: string }
  | { readonly kind: 'timeout' };

// Plain JavaScript, so the worker needs no TypeScript loader (tsx in production, vite in tests); the message shapes
// are `ToWorker` and `FromWorker` above.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { RRule } = require(workerData.rrulePath);
parentPort.on('message', (req) => {
  try {
    const rule = new RRule({ ...RRule.parseString(req.rule), dtstart: new Date(req.dtstart),
      until: req.until === null ? null : new Date(req.until), tzid: null });
    const dates = [];
    rule.between(new Date(req.dtstart), new Date(req.before), true, (d) => { dates.push(d.getTime()); return dates.length <= req.max; });
    parentPort.postMessage({ kind: 'expanded', id: req.id, dates });
  } catch (err) {
    parentPort.postMessage({ kind: 'invalid', id: req.id, message: err instanceof Error ? err.message : String(err) });
  }
});
parentPort.postMessage({ kind: 'ready' });`;

const RRULE_PATH = createRequire(import.meta.url).resolve('rrule');
/** How long a new worker may take to start and load rrule before a request fails (far above it on any machine). */
const STARTUP_LIMIT_MS = 30_000;

/** A worker and its start: a request's budget counts from `ready`, not from the spawn. */
interface Running {
  readonly worker: Worker;
  readonly ready: Promise<void>;
}

/**
 * One worker thread expanding rules in turn, each within `budgetMs` of its own run time. The budget starts once the
 * worker has started: on a loaded machine starting a thread and loading rrule took longer than a 200 ms budget,
 * which refused a valid rule as if it never matched.
 */
export class RruleThread {
  private running: Running | undefined;
  private nextId = 1;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly budgetMs: number) {}

  /**
   * Expands `req` after the requests before it; never blocks the event loop.
   * @example await thread.expand({ rule: 'FREQ=DAILY;COUNT=3', dtstart, until: null, before, max: 730 })
   */
  expand(req: ExpansionRequest): Promise<ExpansionResult> {
    const run = this.queue.then(() => this.runOne(req));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Stops the worker (a later request starts a new one). */
  async close(): Promise<void> {
    const r = this.running;
    this.running = undefined;
    await r?.worker.terminate();
  }

  private async runOne(req: ExpansionRequest): Promise<ExpansionResult> {
    const running = (this.running ??= this.spawn());
    try {
      await running.ready;
    } catch (err) {
      if (this.running === running) this.running = undefined;
      throw err;
    }
    const { worker } = running;
    const id = this.nextId++;
    return new Promise<ExpansionResult>((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
      };
      const onMessage = (msg: FromWorker) => {
        if (msg.kind === 'ready' || msg.id !== id) return;
        done();
        resolve(
          msg.kind === 'expanded' ? { kind: 'expanded', dates: msg.dates } : { kind: 'invalid', message: msg.message },
        );
      };
      const onError = (err: Error) => {
        done();
        if (this.running === running) this.running = undefined;
        reject(err);
      };
      const timer = setTimeout(() => {
        done();
        if (this.running === running) this.running = undefined;
        void worker.terminate();
        resolve({ kind: 'timeout' });
      }, this.budgetMs);
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.postMessage({ ...req, id } satisfies ToWorker);
    });
  }

  private spawn(): Running {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { rrulePath: RRULE_PATH } });
    // An idle worker must not keep the process alive; a pending request keeps its caller's socket open anyway.
    worker.unref();
    const ready = new Promise<void>((resolve, reject) => {
      const settle = (err?: Error) => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', settle);
        worker.off('exit', onExit);
        if (err === undefined) resolve();
        else reject(err);
      };
      const onMessage = (msg: FromWorker) => {
        if (msg.kind === 'ready') settle();
      };
      const onExit = (code: number) =>
        settle(new Error(`the recurrence worker exited with code ${code} while starting`));
      const timer = setTimeout(() => {
        settle(new Error(`the recurrence worker did not start within ${STARTUP_LIMIT_MS} ms`));
        void worker.terminate();
      }, STARTUP_LIMIT_MS);
      timer.unref();
      worker.on('message', onMessage);
      worker.on('error', settle);
      worker.on('exit', onExit);
    });
    // Handled by the request that awaits it; this keeps a start failure with no request waiting from going unhandled.
    ready.catch(() => undefined);
    return { worker, ready };
  }
}
