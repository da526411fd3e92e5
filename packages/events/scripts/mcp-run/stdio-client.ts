import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';

// The client half of MCP's stdio transport: JSON-RPC 2.0 messages, one per line, on the server's stdin and stdout.
// Hand-written (60 lines) so the repository needs no MCP SDK to drive the vendor's server.

interface RpcError {
  code: number;
  message: string;
  data?: unknown;
}
interface Pending {
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
  timer: NodeJS.Timeout;
}

export class McpStdioClient {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly child: ChildProcessWithoutNullStreams;
  /** Everything the server wrote to stderr (its start-up failures are printed there). */
  stderr = '';
  /** Set once the server process ended, with its exit code. */
  exitCode: number | null | undefined;

  constructor(
    command: string,
    args: readonly string[],
    env: NodeJS.ProcessEnv,
    private readonly timeoutMs = 30_000,
  ) {
    this.child = spawn(command, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stderr.on('data', (d: Buffer) => {
      this.stderr += d.toString('utf8');
    });
    this.child.on('exit', (code) => {
      this.exitCode = code;
      for (const p of this.pending.values())
        p.reject(new Error(`MCP server exited (${code}) before answering: ${this.stderr.trim().slice(-500)}`));
      this.pending.clear();
    });
    createInterface({ input: this.child.stdout }).on('line', (line) => this.receive(line));
  }

  private receive(line: string): void {
    let msg: { id?: number; result?: unknown; error?: RpcError };
    try {
      msg = JSON.parse(line) as typeof msg;
    } catch {
      return;
    } // not protocol output (a stray log line)
    if (typeof msg.id !== 'number') return; // a notification from the server
    const p = this.pending.get(msg.id);
    if (!p) return;
    this.pending.delete(msg.id);
    clearTimeout(p.timer);
    if (msg.error) p.reject(new Error(`${msg.error.code} ${msg.error.message}`));
    else p.resolve(msg.result);
  }

  request<T>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`${method}: no answer within ${this.timeoutMs} ms`));
      }, this.timeoutMs);
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, timer });
      this.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  }

  notify(method: string, params: Record<string, unknown> = {}): void {
    this.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method, params })}\n`);
  }

  /** Ends the server: stdin closed, then SIGTERM if it is still running a second later. */
  async close(): Promise<void> {
    if (this.exitCode !== undefined) return;
    const exited = new Promise<void>((r) => this.child.once('exit', () => r()));
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill('SIGTERM'), 1000);
    await exited;
    clearTimeout(timer);
  }
}
