// Runs the vendor's MCP server (github.com/the-events-calendar/mcp-server, built outside this repository) against
// this service on a temporary SQLite store: it must start (its start-up reads /wp-json/, /wp/v2/users/me and
// /wp/v2/settings), then every tool it lists is called with sensible arguments and each call printed PASS or FAIL.
//
//   npm run mcp:run -w @app/events -- /path/to/mcp-server [http://127.0.0.1:8795]
//
// The second argument is where our service listens (its site URL); by default a free loopback port.
// Exit status: 0 every call passed, 1 some failed, 2 the MCP server did not start or the arguments are wrong.
import { freeLoopbackUrl, startEventsSite } from './mcp-run/events-site.ts';
import { mcpServerBuild, startMcpSession, type McpSession } from './mcp-run/mcp-session.ts';
import { TOOL_CALLS, createdId, resultText, type Created, type ToolResult } from './mcp-run/tool-calls.ts';

interface Tally {
  pass: number;
  total: number;
}

/** Makes every scripted call of the listed tools in order; prints one line per call. Returns the failures. */
async function callTools(session: McpSession, listed: readonly string[]): Promise<number> {
  const ids: Created = {};
  const tally = new Map<string, Tally>(listed.map((n) => [n, { pass: 0, total: 0 }]));
  let failed = 0;
  const report = (tool: string, label: string, problem: string | undefined) => {
    const t = tally.get(tool)!;
    t.total++;
    if (problem === undefined) t.pass++;
    else failed++;
    console.log(
      `${problem === undefined ? 'PASS' : 'FAIL'} ${tool}: ${label}${problem === undefined ? '' : `\n     ${problem.replace(/\s+/g, ' ').slice(0, 400)}`}`,
    );
  };
  for (const call of TOOL_CALLS.filter((c) => tally.has(c.tool))) {
    const missing = (call.needs ?? []).filter((k) => ids[k] === undefined);
    if (missing.length > 0) {
      report(call.tool, call.label, `not called: no ${missing.join(', ')} was created`);
      continue;
    }
    let problem: string | undefined;
    try {
      const result = await session.client.request<ToolResult>('tools/call', {
        name: call.tool,
        arguments: call.args(ids),
      });
      const text = resultText(result);
      if (call.expectError) problem = result.isError === true ? undefined : 'expected an error, got a success';
      else problem = result.isError === true ? text : call.check?.(text, ids);
      if (problem === undefined && call.creates !== undefined) {
        const id = createdId(text);
        if (id === undefined) problem = `no id in the answer: ${text}`;
        else ids[call.creates] = id;
      }
    } catch (err) {
      problem = (err as Error).message;
    }
    report(call.tool, call.label, problem);
  }
  for (const [tool, t] of tally) {
    if (t.total === 0) {
      failed++;
      console.log(`FAIL ${tool}: this script has no calls for it (a tool added after 0.1.6)`);
    }
  }
  console.log(`per tool: ${[...tally].map(([n, t]) => `${n} ${t.pass}/${t.total}`).join(', ')}`);
  return failed;
}

async function main(): Promise<number> {
  const [dir, baseArg] = process.argv.slice(2);
  const build = dir === undefined ? undefined : mcpServerBuild(dir);
  if (build === undefined) {
    console.error(
      'usage: mcp-server-run MCP_SERVER_DIR [BASE_URL]   (a built checkout: npm ci && npm run build, so dist/index.js exists)',
    );
    return 2;
  }
  const site = await startEventsSite(new URL(baseArg ?? (await freeLoopbackUrl())));
  console.log(`events service at ${site.siteUrl} (temporary SQLite); MCP server ${build.version}: ${build.entry}`);
  try {
    let session: McpSession;
    try {
      session = await startMcpSession(build.entry, site);
    } catch (err) {
      console.log(
        `START FAIL: ${(err as Error).message}\nrequests the service answered: ${site.seen.join('; ') || 'none'}`,
      );
      return 2;
    }
    try {
      console.log(`START PASS: start-up requests ${site.seen.join(', ')}`);
      const { tools } = await session.client.request<{ tools: Array<{ name: string }> }>('tools/list');
      console.log(`tools listed: ${tools.map((t) => t.name).join(', ')}`);
      const failed = await callTools(
        session,
        tools.map((t) => t.name),
      );
      console.log(`mcp-server-run: ${failed === 0 ? 'every call passed' : `${failed} failed`}`);
      if (failed > 0) console.log(`MCP server log (last lines):\n${session.logTail(12)}`);
      return failed === 0 ? 0 : 1;
    } finally {
      await session.close();
    }
  } finally {
    await site.close();
  }
}

process.exitCode = await main();
