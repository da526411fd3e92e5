#!/usr/bin/env node
// Runs the events CLI: the bundle dist/events.mjs (scripts/bundle.mjs, built by `npm install`) while it is newer
// than every source file, else the TypeScript sources directly through tsx, so an edit takes effect at once with no
// build step. EVENTS_FROM_SOURCE=1 always runs the sources.
import { readdirSync, statSync } from 'node:fs';

const src = new URL('../src/', import.meta.url);
const bundle = new URL('../dist/events.mjs', import.meta.url);

/** The newest modification time under a folder (about 400 files: a few milliseconds). */
function newestUnder(dir) {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!e.isFile()) continue;
    const t = statSync(`${e.parentPath ?? e.path}/${e.name}`).mtimeMs;
    if (t > newest) newest = t;
  }
  return newest;
}

function bundleIsFresh() {
  if (process.env.EVENTS_FROM_SOURCE === '1') return false;
  try {
    return statSync(bundle).mtimeMs > newestUnder(src);
  } catch {
    return false;
  }
}

if (bundleIsFresh()) {
  await import(bundle.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli/main.ts');
}
