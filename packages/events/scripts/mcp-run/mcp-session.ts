import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { McpStdioClient } from './stdio-client.ts';
import type { EventsSite } from './events-site.ts';

/** A built checkout of the vendor's MCP server: `dist/index.js` and its version. */
export function mcpServerBuild(dir: string): { entry: string; version: string } | undefined {
  const entry = join(resolve(dir), 'dist', 'index.js');
  if (!existsSync(entry)) return undefined;
  const version =
    (JSON.parse(readFileSync(join(resolve(dir), 'package.json'), 'utf8')) as { version?: string }).version ?? '?';
  return { entry, version };
}

export interface McpSession {
  readonly client: McpStdioClient;
  /** The last lines of the server's log file (it logs there, never on stdout, which carries the protocol). */
  logTail(lines: number): string;
  close(): Promise<void>;
}

/**
 * Starts the MCP server against `site` as its administrator and completes MCP's initialize handshake. The server
 * checks the site during start-up and exits when that fails: then this rejects with what it printed.
 */
export async function startMcpSession(entry: string, site: EventsSite): Promise<McpSession> {
  const work = mkdtempSync(join(tmpdir(), 'events-mcp-log-'));
  const logFile = join(work, 'mcp-server.log');
  const client = new McpStdioClient(
    process.execPath,
    [entry, '--url', site.siteUrl, '--username', site.login, '--password', site.password],
    { ...process.env, LOG_FILE: logFile, LOG_LEVEL: 'info' },
  );
  const session: McpSession = {
    client,
    logTail: (n) =>
      existsSync(logFile)
        ? readFileSync(logFile, 'utf8')
            .trim()
            .split('\n')
            .slice(-n)
            .map((l) => l.slice(0, 300))
            .join('\n')
        : '',
    async close() {
      await client.close();
      rmSync(work, { recursive: true, force: true });
    },
  };
  try {
    await client.request('initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'events-mcp-run', version: '1' },
    });
  } catch (err) {
    await session.close();
    throw err;
  }
  client.notify('notifications/initialized');
  return session;
}
