#!/usr/bin/env node
// `npm install` (postinstall): bundles each package's CLI (src/cli/main.ts) into <package>/dist/cli.mjs, which its
// bin runs while the bundle is newer than every source file (scripts/cli-launch.mjs).
// Why: under Node 20 tsx sends each of a CLI's ~700 modules through loader hooks on a second thread, so every start
// of `news` or `events` cost 1.9–2.9 CPU-seconds against 0.8 for a bundle; the services and the test suite start them
// hundreds of times. Packages stay external (node_modules loads as usual) and names are kept (errors and logs print
// class names). Each source module's `import.meta.url` is its own file's URL in the bundle too, so every path the
// code finds beside itself (the client sources, the native addon, worker-thread entries, recorded documents) is the
// same as when the sources run; the bundle therefore belongs to this checkout, and records where it was built.
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Replaces `import.meta.url` in each source module by that module's own URL (see the header). */
const ownUrls = {
  name: 'own-import-meta-url',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, (args) => ({
      contents: readFileSync(args.path, 'utf8').replaceAll(
        'import.meta.url',
        JSON.stringify(pathToFileURL(args.path).href),
      ),
      loader: 'ts',
    }));
  },
};

for (const name of process.argv.slice(2)) {
  const pkg = path.join(root, name);
  const next = path.join(pkg, 'dist.next');
  rmSync(next, { recursive: true, force: true });
  mkdirSync(next, { recursive: true });
  await build({
    entryPoints: [path.join(pkg, 'src/cli/main.ts')],
    outfile: path.join(next, 'cli.mjs'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    keepNames: true,
    logLevel: 'warning',
    plugins: [ownUrls],
  });
  writeFileSync(path.join(next, 'built-for'), path.join(pkg, 'src'));
  // Swapped in whole, so a reader never sees half a bundle.
  rmSync(path.join(pkg, 'dist'), { recursive: true, force: true });
  renameSync(next, path.join(pkg, 'dist'));
  console.log(`${name}: bundled the CLI into dist/cli.mjs`);
}
