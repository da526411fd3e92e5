/** Test fixture: a local HTTP server speaking JSON on 127.0.0.1, standing in for the public API in client unit tests. */
import { createServer } from 'node:http';

export type JsonReply = (status: number, value: unknown, headers?: Record<string, string>) => void;

/**
 * Starts a server that parses each request's JSON body (null when empty) and hands it to `answer` with the path.
 * @example const api = await startJsonServer((path, body, reply) => reply(404, { detail: 'Not Found' }));
 */
export async function startJsonServer(
  answer: (path: string, body: Record<string, unknown> | null, reply: JsonReply) => void,
): Promise<{ base: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => {
      raw += c.toString();
    });
    req.on('end', () => {
      const reply: JsonReply = (status, value, headers = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(JSON.stringify(value));
      };
      answer(req.url ?? '', raw === '' ? null : (JSON.parse(raw) as Record<string, unknown>), reply);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    base: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
