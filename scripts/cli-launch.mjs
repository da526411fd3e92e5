// Runs a package's CLI for its bin: the bundle dist/cli.mjs (scripts/cli-bundle.mjs, built by `npm install`) while
// it was built for this checkout and is newer than every source file, else the TypeScript sources through tsx, so
// an edit takes effect at once with no build step. RUN_FROM_SOURCE=1 always runs the sources.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The newest modification time under a folder (a few hundred files: a few milliseconds). */
function newestUnder(dir) {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!e.isFile()) continue;
    const t = statSync(`${e.parentPath ?? e.path}/${e.name}`).mtimeMs;
    if (t > newest) newest = t;
  }
  return newest;
}

function freshBundle(pkg) {
  if (process.env.RUN_FROM_SOURCE === '1') return undefined;
  const src = fileURLToPath(new URL('src', pkg));
  const bundle = new URL('dist/cli.mjs', pkg);
  try {
    if (readFileSync(new URL('dist/built-for', pkg), 'utf8') !== src) return undefined;
    return statSync(bundle).mtimeMs > newestUnder(src) ? bundle : undefined;
  } catch {
    return undefined;
  }
}

/** `binUrl`: the bin's own `import.meta.url` (the package is the folder above bin/). */
export async function launchCli(binUrl) {
  const pkg = new URL('../', binUrl);
  const bundle = freshBundle(pkg);
  if (bundle !== undefined) {
    await import(bundle.href);
    return;
  }
  const { register } = await import('tsx/esm/api');
  register();
  await import(new URL('src/cli/main.ts', pkg).href);
}
