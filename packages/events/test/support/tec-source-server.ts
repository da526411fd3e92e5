// A stand-in for a remote site running the plugin: a loopback server answering each list route with what the test
// gives it (recorded answers of the conformance kit, or broken answers), and counting requests.
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

export type Answer = (req: IncomingMessage, url: URL, res: ServerResponse) => void;

export const json =
  (body: unknown, status = 200): Answer =>
  (_req, _url, res) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
    res.end(JSON.stringify(body));
  };

/** Serves `routes` (the path after `/wp-json/tribe/events/v1`); anything else is a 404 as WordPress answers it. */
export async function startTecSource(
  routes: Record<string, Answer>,
): Promise<{ url: string; requests: string[]; close(): Promise<void> }> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    requests.push(`${url.pathname}${url.search} ${req.headers.authorization ?? '-'}`);
    const answer = routes[url.pathname.replace('/wp-json/tribe/events/v1', '')];
    if (answer === undefined) return json({ code: 'rest_no_route', data: { status: 404 } }, 404)(req, url, res);
    answer(req, url, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

interface GoldenStep {
  id: string;
  status: number;
  body: unknown;
}

/** The recorded answer of the real plugin at step `id` of the conformance kit (`golden.json`). */
export function recordedAnswer(id: string): Record<string, unknown> {
  const file = fileURLToPath(new URL('../../../../../shared/conformance/tec/golden.json', import.meta.url));
  const golden = JSON.parse(readFileSync(file, 'utf8')) as { steps: GoldenStep[] };
  const step = golden.steps.find((s) => s.id === id);
  if (step?.status !== 200) throw new Error(`step ${id} of the kit is not a recorded 200 answer`);
  return step.body as Record<string, unknown>;
}
