/**
 * The gateway⇄worker stream (protocol 5): one long-lived connection per worker, opened with an HTTP upgrade on
 * `GET /rpc` so it shares the worker's port and address, then carrying many calls at once as frames:
 *
 *   [u32 BE length of type + payload][u32 BE call id][u8 type][payload, UTF-8]
 *
 * A request frame's payload is the JSON envelope `POST /rpc` takes; a reply frame answers the call with the same id
 * (in any order). Why: one HTTP request per worker call cost a socket write and read on each side per call, the
 * largest item of a fanned-out count (`--cpu-prof`, BENCHMARKS.md); frames written in the same event-loop turn
 * leave in one write and arrive in one read.
 */

/** `Upgrade:` token of the stream; the version is in each envelope, as over `POST /rpc`. */
export const STREAM_UPGRADE = 'news-rpc';

/** What a frame carries. */
export const FrameType = {
  /** Gateway → worker: a JSON envelope. */
  request: 0,
  /** A reply as `application/json` over HTTP. */
  json: 1,
  /** A reply as the split body (reply-framing.ts). */
  split: 2,
  /** The worker could not read the request (HTTP 400/413 over `POST /rpc`): payload is the reason. */
  refused: 3,
  /** The worker failed answering it (HTTP 500): payload is a plain message. */
  failed: 4,
  /**
   * Gateway → worker: the call with this id is no longer wanted (its client went away or its deadline passed);
   * empty payload, no reply. The worker stops its work at the next check; a reply already on its way is dropped.
   */
  cancel: 5,
} as const;
export type FrameType = (typeof FrameType)[keyof typeof FrameType];

const HEADER_BYTES = 9;
/** Frames larger than this are not from our gateway or worker (a v2 reply stays under ~4 MB). */
export const MAX_FRAME_BYTES = 64 * 1024 * 1024;

/** One frame as bytes. @example socket.write(encodeFrame(7, FrameType.request, envelopeJson)) */
export function encodeFrame(id: number, type: FrameType, payload: string): Buffer {
  const bytes = Buffer.byteLength(payload);
  const out = Buffer.allocUnsafe(HEADER_BYTES + bytes);
  out.writeUInt32BE(bytes + 1, 0);
  out.writeUInt32BE(id >>> 0, 4);
  out[8] = type;
  out.write(payload, HEADER_BYTES, 'utf8');
  return out;
}

/** The frame is longer than the reader accepts: the peer is not speaking this protocol. */
export class FrameTooLarge extends Error {
  override readonly name = 'FrameTooLarge';
}

/** Receives one complete frame; `payload` is a view of the reader's input, valid only during the call: copy or decode what you keep. */
export type OnFrame = (id: number, type: number, payload: Buffer) => void;

/**
 * Cuts a byte stream into frames, whatever the chunk boundaries. A frame wholly inside a chunk is handed over as a view
 * of it, nothing copied, so the chunk may be a reused read buffer (`net.connect`'s `onread`); only a frame that spans
 * chunks is copied, once, into a buffer of its size (a 3 MB reply arriving in 64 kB reads is copied once).
 */
export class FrameReader {
  /** Bytes of the frame being carried across chunks (0: none); its header goes to `#header` until its size is known. */
  #filled = 0;
  readonly #header = Buffer.alloc(HEADER_BYTES);
  #frame: Buffer | null = null;

  constructor(private readonly maxFrameBytes: number = MAX_FRAME_BYTES) {}

  /** Hands every frame `chunk` completes to `onFrame`, in order. Throws FrameTooLarge on a length above the limit. */
  push(chunk: Buffer, onFrame: OnFrame): void {
    let at = this.#filled > 0 ? this.#carry(chunk, 0, onFrame) : 0;
    while (at < chunk.length) {
      if (chunk.length - at >= HEADER_BYTES) {
        const total = this.#total(chunk.readUInt32BE(at));
        if (chunk.length - at >= total) {
          onFrame(chunk.readUInt32BE(at + 4), chunk[at + 8] as number, chunk.subarray(at + HEADER_BYTES, at + total));
          at += total;
          continue;
        }
      }
      at = this.#carry(chunk, at, onFrame);
    }
  }

  /** Frame bytes (header included) for a length field, after checking it. */
  #total(length: number): number {
    if (length < 1 || length - 1 > this.maxFrameBytes)
      throw new FrameTooLarge(`frame of ${length} bytes (limit ${this.maxFrameBytes})`);
    return 8 + length;
  }

  /** Copies `chunk` from `at` into the carried frame; hands the frame over once whole. Returns where reading stopped. */
  #carry(chunk: Buffer, at: number, onFrame: OnFrame): number {
    if (this.#frame === null) {
      const n = Math.min(HEADER_BYTES - this.#filled, chunk.length - at);
      chunk.copy(this.#header, this.#filled, at, at + n);
      this.#filled += n;
      at += n;
      if (this.#filled < HEADER_BYTES) return at;
      this.#frame = Buffer.allocUnsafe(this.#total(this.#header.readUInt32BE(0)));
      this.#header.copy(this.#frame);
    }
    const frame = this.#frame;
    const n = Math.min(frame.length - this.#filled, chunk.length - at);
    chunk.copy(frame, this.#filled, at, at + n);
    this.#filled += n;
    at += n;
    if (this.#filled === frame.length) {
      this.#filled = 0;
      this.#frame = null;
      onFrame(frame.readUInt32BE(4), frame[8] as number, frame.subarray(HEADER_BYTES));
    }
    return at;
  }
}
