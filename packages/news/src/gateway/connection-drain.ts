import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * Lets `app.close()` end as soon as the answers under way are sent. Node's `server.close()` ends only the
 * keep-alive sockets idle at that moment; a socket that never carried a request (a browser's preconnect) or
 * whose answer was still being written stays open until the client drops it or the 65 s keep-alive timeout
 * passes, and close() waits for it. On close, sockets with no answer in progress end at once; the others
 * end right after their answer, which says `Connection: close`.
 * @example drainConnectionsOnClose(app); // once, before listen
 */
export function drainConnectionsOnClose(app: FastifyInstance): void {
  const sockets = new Set<Socket>();
  const answering = new Map<Socket, Set<ServerResponse>>();
  let closing = false;

  app.server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => {
      sockets.delete(socket);
      answering.delete(socket);
    });
  });
  app.server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    const answers = answering.get(socket) ?? new Set<ServerResponse>();
    answering.set(socket, answers);
    answers.add(res);
    res.once('close', () => {
      answers.delete(res);
      if (answers.size > 0) return;
      answering.delete(socket);
      if (closing) socket.end();
    });
  });
  app.addHook('preClose', (done) => {
    closing = true;
    for (const socket of sockets) {
      const answers = answering.get(socket);
      if (answers === undefined) socket.destroy();
      else for (const res of answers) if (!res.headersSent) res.setHeader('connection', 'close');
    }
    done();
  });
}
