import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freeLoopbackUrl, startEventsSite, type EventsSite } from '../scripts/mcp-run/events-site.ts';
import { mcpServerBuild, startMcpSession, type McpSession } from '../scripts/mcp-run/mcp-session.ts';

// Issue 25: the vendor's MCP server 0.1.6 checks the site at start-up (GET /wp-json/, /wp/v2/users/me,
// /wp/v2/settings) and exits when a check fails. Its code is not in this repository: build it elsewhere and point
// EVENTS_MCP_SERVER_DIR at the checkout (README, "The vendor's MCP server"). Its tool calls: `npm run mcp:run`.

const dir = process.env.EVENTS_MCP_SERVER_DIR;
const build = dir === undefined ? undefined : mcpServerBuild(dir);
if (build === undefined)
  console.warn(
    `mcp-server-start test skipped: ${dir === undefined ? 'EVENTS_MCP_SERVER_DIR is not set' : `no dist/index.js under ${dir}`}`,
  );

describe.skipIf(build === undefined)('the vendor MCP server against the service (SQLite)', () => {
  let site: EventsSite;
  let session: McpSession;
  beforeAll(async () => {
    site = await startEventsSite(new URL(await freeLoopbackUrl()));
    session = await startMcpSession(build!.entry, site);
  }, 30_000);
  afterAll(async () => {
    await session?.close();
    await site?.close();
  });

  it('starts: its three start-up checks are answered 200, then it lists its tools', async () => {
    expect(site.seen.slice(0, 3)).toEqual([
      'GET /wp-json/ 200',
      'GET /wp-json/wp/v2/users/me 200',
      'GET /wp-json/wp/v2/settings 200',
    ]);
    const { tools } = await session.client.request<{ tools: Array<{ name: string }> }>('tools/list');
    expect(tools.map((t) => t.name)).toEqual([
      'tec-calendar-create-update-entities',
      'tec-calendar-read-entities',
      'tec-calendar-delete-entities',
    ]);
  });

  it('refuses to start with a wrong application password, as against WordPress', async () => {
    const wrong = { ...site, password: 'WrongPass000000000000000' };
    await expect(startMcpSession(build!.entry, wrong)).rejects.toThrow(
      /Authentication to WordPress REST API failed \(status 401\)/,
    );
  });
});
