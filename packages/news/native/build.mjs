#!/usr/bin/env node
// Builds the libdivsufsort addon (root `postinstall`). Finds a node-gyp (a local one, else the one npm bundles)
// and the Node headers installed beside this node binary, so no network is needed.
import { spawnSync } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);

function findNodeGyp() {
  try {
    return require.resolve('node-gyp/bin/node-gyp.js');
  } catch {
    // not a local dependency: use the copy bundled with npm
  }
  const candidates = [];
  if (process.env.npm_execpath) candidates.push(path.join(path.dirname(process.env.npm_execpath), '..'));
  const which = spawnSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' });
  if (which.status === 0 && which.stdout.trim()) candidates.push(path.join(path.dirname(realpathSync(which.stdout.trim())), '..'));
  candidates.push(path.join(path.dirname(process.execPath), '..', 'lib', 'node_modules', 'npm'));
  for (const npmDir of candidates) {
    const gyp = path.join(npmDir, 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
    if (existsSync(gyp)) return gyp;
  }
  return undefined;
}

const headerDirs = ['/usr/include/x86_64-linux-gnu', '/usr/include', '/usr/local/include'];
if (!headerDirs.some((d) => existsSync(path.join(d, 'divsufsort.h')))) {
  console.warn('news native: divsufsort.h not found; the suffix-array addon is NOT built.\n' +
    '  Fix: apt-get install -y libdivsufsort-dev && npm run postinstall');
  process.exit(0); // leave the install usable; the loader throws the same instruction when the addon is needed
}
const nodeGyp = findNodeGyp();
if (!nodeGyp) {
  console.error('news native: node-gyp not found (neither installed locally nor bundled with npm). Fix: npm i -D node-gyp');
  process.exit(1);
}
const args = [nodeGyp, 'rebuild', `--directory=${here}`];
const nodeDir = path.join(path.dirname(process.execPath), '..');
if (!process.env.npm_config_nodedir && existsSync(path.join(nodeDir, 'include', 'node', 'node_api.h'))) {
  args.push(`--nodedir=${nodeDir}`);
}
const run = spawnSync(process.execPath, args, { stdio: 'inherit' });
process.exit(run.status ?? 1);
