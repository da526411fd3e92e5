#!/usr/bin/env node
// Bundles the events CLI (and service) into dist/events.mjs, run by bin/events.js while it is newer than every
// source file. Why: under Node 20, running the TypeScript sources through tsx sends each of the ~700 modules through
// loader hooks on another thread, which cost about 2.6 CPU-seconds per start against 1.1 for the bundle; the test
// suite starts the service and the CLI hundreds of times. Packages stay external (node_modules is loaded as usual),
// names are kept (errors and logs print class names), and the files the code reads beside itself are copied.
// A missing or stale bundle is never an error: bin/events.js then runs the sources through tsx as before.
import { cpSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
const next = path.join(root, 'dist.next');
rmSync(next, { recursive: true, force: true });
mkdirSync(next, { recursive: true });
await build({
  entryPoints: [path.join(root, 'src/cli/main.ts')],
  outfile: path.join(next, 'events.mjs'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  keepNames: true,
  sourcemap: 'linked',
  logLevel: 'warning',
});
// tec-v1 reads its recorded documents from `./recorded/` beside the module that asks, which is now the bundle.
cpSync(path.join(root, 'src/tec-v1/recorded'), path.join(next, 'recorded'), { recursive: true });
// Swapped in whole, so a reader never sees half a bundle.
rmSync(dist, { recursive: true, force: true });
renameSync(next, dist);
console.log('events: bundled the CLI into dist/events.mjs');
