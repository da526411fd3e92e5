/**
 * A local stand-in for the dataset hub, speaking the two endpoints the retrieval recipe uses:
 * `GET /api/datasets/<repo>` (latest commit as `sha`) and `GET /datasets/<repo>/resolve/<revision>/<path>`.
 * Each commit is a directory (the output of `news publish-hub`, possibly altered by a test).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { readFile } from 'node:fs/promises';
import { join, normalize } from 'node:path';

export interface HubCommit {
  readonly sha: string;
  readonly dir: string;
}

export interface HubServer {
  readonly url: string;
  /** Every request path, in order. */
  readonly requests: string[];
  close(): Promise<void>;
}

function send(res: ServerResponse, status: number, body: string | Buffer, type = 'application/json'): void {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/**
 * Serves `repo` with `commits`; the last one is the latest (what `/api/datasets/<repo>` reports).
 * `beforeAnswer` runs before each answer (a test uses it to change the API's release mid-run).
 */
export async function startHubServer(
  repo: string,
  commits: readonly HubCommit[],
  beforeAnswer?: (path: string) => Promise<void>,
): Promise<HubServer> {
  const requests: string[] = [];
  const bySha = new Map(commits.map((c) => [c.sha, c.dir]));

  async function answer(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    if (req.method !== 'GET') return send(res, 405, JSON.stringify({ error: 'method not allowed' }));
    if (path === `/api/datasets/${repo}`)
      return send(res, 200, JSON.stringify({ id: repo, sha: commits.at(-1)?.sha ?? null }));
    const prefix = `/datasets/${repo}/resolve/`;
    if (!path.startsWith(prefix)) return send(res, 404, JSON.stringify({ error: 'Repository not found' }));
    const rest = path.slice(prefix.length);
    const slash = rest.indexOf('/');
    const dir = slash < 0 ? undefined : bySha.get(rest.slice(0, slash));
    const file = normalize(rest.slice(slash + 1));
    if (dir === undefined || file.startsWith('..'))
      return send(res, 404, JSON.stringify({ error: 'Revision or entry not found' }));
    try {
      send(
        res,
        200,
        await readFile(join(dir, file)),
        file.endsWith('.json') ? 'application/json' : 'application/octet-stream',
      );
    } catch {
      send(res, 404, JSON.stringify({ error: 'Entry not found' }));
    }
  }

  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://hub').pathname);
    requests.push(path);
    void (beforeAnswer ?? (async () => {}))(path)
      .then(() => answer(req, res, path))
      .catch((e: unknown) => send(res, 500, JSON.stringify({ error: String(e) })));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const addr = server.address();
  if (addr === null || typeof addr === 'string') throw new Error('hub server has no TCP address');
  return {
    url: `http://127.0.0.1:${addr.port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
