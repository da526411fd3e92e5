/** Runs a Python script with python3 (asynchronously: the servers it talks to live in this process). */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const STANDIN = fileURLToPath(new URL('./python', import.meta.url));
const READER = fileURLToPath(new URL('./read-parquet.mjs', import.meta.url));

export interface PythonRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * `withPyarrowStandIn`: puts the test stand-in for pyarrow on PYTHONPATH (Debian 12 has no python3-pyarrow and PyPI
 * is unreachable here); it decodes Parquet through hyparquet. Nothing else of the script is replaced.
 */
export function runPython(
  script: string,
  args: readonly string[],
  cwd: string,
  withPyarrowStandIn = false,
): Promise<PythonRun> {
  const env = {
    ...process.env,
    ...(withPyarrowStandIn ? { PYTHONPATH: STANDIN, NEWS_TEST_PARQUET_READER: READER } : {}),
  };
  return new Promise((resolve, reject) => {
    const child = spawn('python3', [script, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
