#!/usr/bin/env node
// Builds the suffix-sorting addon (root `postinstall`). Finds a node-gyp (a local one, else the one npm bundles)
// and the Node headers installed beside this node binary, so no network is needed. Our own SA-IS is always compiled
// in; libdivsufsort is linked as the faster default when its header is present, unless NEWS_NATIVE_SORTER=sais
// (the fresh-machine path, also used by the tests that build without it).
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
const forced = process.env.NEWS_NATIVE_SORTER;
if (forced !== undefined && forced !== 'sais' && forced !== 'divsufsort') {
  console.error(`news native: NEWS_NATIVE_SORTER=${forced} is not a sorter; use sais or divsufsort (or leave it unset)`);
  process.exit(1);
}
const hasDivsufsort = headerDirs.some((d) => existsSync(path.join(d, 'divsufsort.h')));
if (forced === 'divsufsort' && !hasDivsufsort) {
  console.error('news native: NEWS_NATIVE_SORTER=divsufsort but divsufsort.h is not installed. Fix: apt-get install -y libdivsufsort-dev');
  process.exit(1);
}
const withDivsufsort = hasDivsufsort && forced !== 'sais';
console.log(withDivsufsort
  ? 'news native: building the suffix sorter with libdivsufsort (default) and our SA-IS'
  : `news native: building the suffix sorter with our SA-IS only (${hasDivsufsort ? 'NEWS_NATIVE_SORTER=sais' : 'libdivsufsort-dev not installed; it is an optional accelerator, ~1.4x faster'})`);
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
const run = spawnSync(process.execPath, args, { stdio: 'inherit', env: { ...process.env, NEWS_WITH_DIVSUFSORT: withDivsufsort ? '1' : '0' } });
process.exit(run.status ?? 1);
