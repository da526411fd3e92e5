import { createServer, connect, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy in front of PostgreSQL that can hold back what the server sends to listening connections (those that
 * sent `LISTEN`): notifications then arrive late, as on a loaded instance, while queries on other connections run.
 */
export interface NotifyProxy {
  readonly port: number;
  /** Holds back the server's messages to listening connections until `release`. */
  hold(): void;
  release(): void;
  close(): Promise<void>;
}

export async function startNotifyProxy(target: { host: string; port: number }): Promise<NotifyProxy> {
  let held = false;
  const listeners = new Set<{ client: Socket; queue: Buffer[] }>();
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    sockets.add(client).add(upstream);
    const state = { client, queue: [] as Buffer[] };
    let listening = false;
    client.on('data', (chunk) => {
      if (!listening && /listen /i.test(chunk.toString('latin1'))) {
        listening = true;
        listeners.add(state);
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (listening && held) state.queue.push(chunk);
      else client.write(chunk);
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
      listeners.delete(state);
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as { port: number }).port,
    hold: () => {
      held = true;
    },
    release() {
      held = false;
      for (const l of listeners) for (const chunk of l.queue.splice(0)) l.client.write(chunk);
    },
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}
