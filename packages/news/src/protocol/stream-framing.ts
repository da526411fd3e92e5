/**
 * The gateway⇄worker stream (protocol 4): one long-lived connection per worker, opened with an HTTP upgrade on
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
} as const;
export type FrameType = (typeof FrameType)[keyof typeof FrameType];

const HEADER_BYTES = 9;
/** Frames larger than this are not from our gateway or worker (a v2 reply stays under ~4 MB). */
export const MAX_FRAME_BYTES = 64 * 1024 * 1024;

export interface Frame {
  readonly id: number;
  readonly type: number;
  readonly payload: Buffer;
}

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

/**
 * Cuts a byte stream into frames, whatever the chunk boundaries. Keeps the unread tail as a list of chunks, so a
 * 3 MB reply arriving in 64 kB reads is copied once, not once per read.
 */
export class FrameReader {
  private chunks: Buffer[] = [];
  private buffered = 0;

  constructor(private readonly maxFrameBytes: number = MAX_FRAME_BYTES) {}

  /** Adds a chunk and returns every frame it completes. Throws FrameTooLarge on a length above the limit. */
  push(chunk: Buffer): Frame[] {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    const frames: Frame[] = [];
    for (;;) {
      if (this.buffered < HEADER_BYTES) break;
      const head = this.peek(HEADER_BYTES);
      const length = head.readUInt32BE(0);
      if (length < 1 || length - 1 > this.maxFrameBytes) throw new FrameTooLarge(`frame of ${length} bytes (limit ${this.maxFrameBytes})`);
      const total = 8 + length;
      if (this.buffered < total) break;
      const whole = this.take(total);
      frames.push({ id: whole.readUInt32BE(4), type: whole[8] as number, payload: whole.subarray(HEADER_BYTES) });
    }
    return frames;
  }

  /** The first `n` buffered bytes, joined only when they span chunks. */
  private peek(n: number): Buffer {
    const first = this.chunks[0] as Buffer;
    if (first.length >= n) return first;
    const joined = Buffer.concat(this.chunks);
    this.chunks = [joined];
    return joined;
  }

  private take(n: number): Buffer {
    const first = this.peek(n);
    this.buffered -= n;
    // A chunk holding exactly one frame (the usual small reply) is handed out as it is, without another view.
    if (first.length === n) { this.chunks.shift(); return first; }
    this.chunks[0] = first.subarray(n);
    return first.subarray(0, n);
  }
}
