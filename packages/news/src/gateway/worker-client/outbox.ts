import type { Socket } from 'node:net';
import { encodeFrame, FrameType } from '../../protocol/index.ts';

/** The id slot of a frame that leaves whatever `live` says (a cancel: its call is no longer live by definition). */
const ALWAYS = -1;

/**
 * The request frames waiting to leave on one worker stream: the frames of one event-loop turn leave together in
 * `setImmediate`, in one write (one system call; cheaper than corking the socket and writing each); a frame whose
 * call passed its deadline meanwhile is not sent. Holding frames longer to put more calls in one write was measured
 * and dropped (BENCHMARKS.md "News scale-out"): until the worker's next reply or for 1 ms, the worker idled between
 * batches; with two writes in flight, no gain within the noise of the shared 2 cores.
 */
export class Outbox {
  #frames: Buffer[] = [];
  #ids: number[] = [];
  #scheduled = false;

  /** `live(id, now)`: whether the call still waits for its answer and is inside its deadline. */
  constructor(
    readonly socket: Socket,
    private readonly live: (id: number, now: number) => boolean,
  ) {}

  /** Tells the worker that call `id` is no longer wanted, so it stops computing it. */
  cancel(id: number): void {
    this.add(ALWAYS, encodeFrame(id, FrameType.cancel, ''));
  }

  add(id: number, frame: Buffer): void {
    this.#frames.push(frame);
    this.#ids.push(id);
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(this.#flush);
  }

  readonly #flush = (): void => {
    this.#scheduled = false;
    const frames = this.#frames;
    const ids = this.#ids;
    this.#frames = [];
    this.#ids = [];
    if (this.socket.destroyed) return;
    const out: Buffer[] = [];
    const now = performance.now();
    for (let i = 0; i < frames.length; i++) {
      const id = ids[i] as number;
      if (id === ALWAYS || this.live(id, now)) out.push(frames[i] as Buffer);
    }
    if (out.length === 0) return;
    this.socket.write(out.length === 1 ? (out[0] as Buffer) : Buffer.concat(out));
  };
}
