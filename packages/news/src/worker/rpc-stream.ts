import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import {
  encodeFrame,
  FrameReader,
  FrameTooLarge,
  FrameType,
  RPC_PATH,
  SPLIT_REPLY_TYPE,
  STREAM_UPGRADE,
} from '../protocol/index.ts';
import type { WorkBudget } from '../work-budget/index.ts';
import { answerRpc, PendingAnswer, type RpcAnswer } from './rpc-answer.ts';
import type { RoutedHandler } from './shard-view.ts';

export interface RpcStreams {
  /** Ends every open stream (the server's own closeAllConnections does not see upgraded sockets). */
  closeAll(): void;
}

const SWITCH = `HTTP/1.1 101 Switching Protocols\r\nUpgrade: ${STREAM_UPGRADE}\r\nConnection: Upgrade\r\n\r\n`;
const NOT_HERE = 'HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n';

/**
 * Serves the frame stream (protocol/stream-framing.ts) on `GET /rpc` with `Upgrade: news-rpc`. Each request frame is
 * answered as `POST /rpc` answers its body; the replies of one event-loop turn leave in one write. A v2 request is
 * answered when its work ends (other frames are answered meanwhile); a cancel frame, or the stream closing, stops it.
 */
export function acceptRpcStreams(
  server: Server,
  handle: RoutedHandler,
  maxFrameBytes: number,
  log: Logger,
): RpcStreams {
  const open = new Set<Duplex>();
  server.on('upgrade', (req, socket: Duplex, head: Buffer) => {
    if (req.method !== 'GET' || req.url !== RPC_PATH || req.headers.upgrade?.toLowerCase() !== STREAM_UPGRADE) {
      socket.end(NOT_HERE);
      return;
    }
    open.add(socket);
    (socket as Socket).setNoDelay?.(true);
    socket.write(SWITCH);
    const reader = new FrameReader(maxFrameBytes);
    let corked = false;
    const flush = () => {
      corked = false;
      socket.uncork();
    };
    /** Calls still computing, by id, so a cancel frame or the stream's end can stop them. */
    const running = new Map<number, WorkBudget>();
    const send = (id: number, a: RpcAnswer) => {
      if (socket.destroyed) return;
      const frame = a.ok
        ? encodeFrame(id, a.contentType === SPLIT_REPLY_TYPE ? FrameType.split : FrameType.json, a.body)
        : encodeFrame(id, a.refused ? FrameType.refused : FrameType.failed, a.detail);
      if (!corked) {
        corked = true;
        socket.cork();
        setImmediate(flush);
      }
      socket.write(frame);
    };
    const answer = (id: number, type: number, payload: Buffer) => {
      if (type === FrameType.cancel) {
        running.get(id)?.cancel();
        return;
      }
      const a =
        type === FrameType.request
          ? answerRpc(handle, payload.toString('utf8'), log)
          : { ok: false as const, refused: true as const, detail: `frame type ${type} is not a request` };
      if (!(a instanceof PendingAnswer)) {
        send(id, a);
        return;
      }
      running.set(id, a.work);
      void a.answer.then((done) => {
        running.delete(id);
        send(id, done);
      });
    };
    const read = (chunk: Buffer) => {
      try {
        reader.push(chunk, answer);
      } catch (e) {
        // Not our gateway (it never sends more than its own 1 MiB body limit): drop the connection.
        if (e instanceof FrameTooLarge) log.warn({ err: e }, 'rpc stream frame too large; closing the stream');
        else log.error({ err: e }, 'rpc stream failed answering a frame; closing the stream');
        socket.destroy();
      }
    };
    if (head.length > 0) read(head);
    socket.on('data', read);
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      open.delete(socket);
      // The gateway that asked is gone: nobody reads these answers.
      for (const work of running.values()) work.cancel();
      running.clear();
    });
  });
  return {
    closeAll: () => {
      for (const s of open) s.destroy();
      open.clear();
    },
  };
}
