import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { RPC_PATH } from '../protocol/index.ts';
import { answerRpc, PendingAnswer, type RpcAnswer } from './rpc-answer.ts';
import { acceptRpcStreams } from './rpc-stream.ts';
import type { RoutedHandler } from './shard-view.ts';

/** Any body the gateway accepts (1 MiB, e.g. v2 filter lists or 1,000 metadata references) fits; larger is not from our gateway. */
const MAX_RPC_BODY_BYTES = 2 * 1024 * 1024;

export interface WorkerServerOptions {
  readonly host: string;
  readonly port: number;
}

export interface RunningServer {
  readonly url: string;
  readonly server: Server;
  close(): Promise<void>;
}

function send(res: ServerResponse, status: number, body: string, contentType = 'application/json'): void {
  // nosniff as on every gateway answer: whoever reads the worker's port directly gets JSON treated as JSON.
  res.writeHead(status, {
    'content-type': contentType,
    'content-length': Buffer.byteLength(body),
    'x-content-type-options': 'nosniff',
  });
  res.end(body);
}

function readBody(req: IncomingMessage): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    // An oversize body is drained, not kept, so the answer (413) still reaches the client.
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_RPC_BODY_BYTES) chunks.push(c);
    });
    req.on('end', () => resolve(size > MAX_RPC_BODY_BYTES ? null : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * The worker's HTTP framing: plain node:http with one route. The protocol is a single JSON message each
 * way, so a framework would add routing and schema layers this does not need (CPU per request measured in
 * src/gateway/DESIGN.md).
 */
export function startWorkerServer(
  handle: RoutedHandler,
  opts: WorkerServerOptions,
  log: Logger,
): Promise<RunningServer> {
  const server = createServer({ keepAlive: true }, (req, res) => {
    if (req.method !== 'POST' || req.url !== RPC_PATH) {
      send(res, 404, JSON.stringify({ detail: `the worker answers POST ${RPC_PATH} only` }));
      return;
    }
    readBody(req).then(
      (body) => {
        if (body === null) {
          send(res, 413, JSON.stringify({ detail: 'RPC body too large' }));
          return;
        }
        const respond = (answer: RpcAnswer) => {
          if (res.destroyed) return;
          if (answer.ok) send(res, 200, answer.body, answer.contentType);
          else send(res, answer.refused ? 400 : 500, JSON.stringify({ detail: answer.detail }));
        };
        const answer = answerRpc(handle, body.toString('utf8'), log);
        if (!(answer instanceof PendingAnswer)) {
          respond(answer);
          return;
        }
        // The caller hung up before its answer: stop the work.
        res.once('close', () => {
          if (!res.writableFinished) answer.work.cancel();
        });
        void answer.answer.then(respond);
      },
      (e: unknown) => {
        log.warn({ err: e }, 'rpc body read failed');
      },
    );
  });
  const streams = acceptRpcStreams(server, handle, MAX_RPC_BODY_BYTES, log);
  // Longer than the gateway's pool keep-alive so the gateway, not the worker, closes idle sockets.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      const addr = server.address();
      if (addr === null || typeof addr === 'string') {
        reject(new Error('worker server has no TCP address'));
        return;
      }
      const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
      resolve({
        url: `http://${host}:${addr.port}`,
        server,
        close: () =>
          new Promise<void>((res) => {
            streams.closeAll();
            server.closeAllConnections();
            server.close(() => res());
          }),
      });
    });
  });
}
