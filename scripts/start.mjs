#!/usr/bin/env node
// `npm start`: runs both services on their embedded defaults, side by side, with prefixed output.
// News search: `news demo` (builds a release once from ../shared/corpora or a generated synthetic corpus, then serves it).
// Events calendar: `events serve` (SQLite in ./data/events.sqlite). Ctrl-C stops both.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const services = [
  { name: 'news', args: ['packages/news/bin/news.js', 'demo', ...process.argv.slice(2)] },
  { name: 'events', args: ['packages/events/bin/events.js', 'serve'] },
];

const children = services.map(({ name, args }) => {
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  for (const stream of [child.stdout, child.stderr]) {
    let rest = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) process.stdout.write(`[${name}] ${line}\n`);
    });
  }
  child.on('exit', (code, signal) => {
    process.stdout.write(`[${name}] exited (${signal ?? code})\n`);
    stopAll(code ?? 1);
  });
  return child;
});

let stopping = false;
function stopAll(code) {
  if (stopping) return;
  stopping = true;
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  setTimeout(() => process.exit(code), 500).unref();
}
process.on('SIGINT', () => stopAll(0));
process.on('SIGTERM', () => stopAll(0));
