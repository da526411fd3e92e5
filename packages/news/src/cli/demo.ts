import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { writeSyntheticCorpus, defaultSyntheticCorpusOptions } from '../corpus/synthetic.ts';
import { buildRelease, INDEX_MANIFEST_FILE } from '../release/index.ts';
import type { CliCommand, CliContext } from './context.ts';
import { action } from './fail.ts';
import { createProgressReporter } from './progress-line.ts';
import { serveRelease } from './serve.ts';
import { parsePort } from './worker.ts';

const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
/** The shared real corpora live beside the repository, never inside it. */
const SHARED_CORPORA = join(REPO_ROOT, '..', 'shared', 'corpora');
const DATA_DIR = join(REPO_ROOT, 'data');
/** Size of the generated demo corpus: big enough to search meaningfully, built in a few seconds. */
const DEMO_TEXT_BYTES = 8_000_000;

async function corpusFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await corpusFiles(p)));
    else if (entry.name.endsWith('.jsonl.gz')) out.push(p);
  }
  return out.sort();
}

/** A short key of the inputs (paths, sizes, mtimes): a changed corpus gets a new cached release. */
async function inputsKey(files: readonly string[], salt: string): Promise<string> {
  const h = createHash('sha256').update(salt);
  for (const f of files) {
    const s = await stat(f);
    h.update(`${f}\0${s.size}\0${s.mtimeMs}\n`);
  }
  return h.digest('hex').slice(0, 12);
}

/** Builds the demo release once (cached under data/) and returns its directory. */
async function ensureDemoRelease(ctx: CliContext, forceSynthetic: boolean): Promise<string> {
  await mkdir(DATA_DIR, { recursive: true });
  let inputs: string[];
  let label: string;
  if (!forceSynthetic && existsSync(SHARED_CORPORA) && (await corpusFiles(SHARED_CORPORA)).length > 0) {
    inputs = await corpusFiles(SHARED_CORPORA);
    label = 'shared';
    ctx.stderr.write(`news demo: using the real corpora in ${SHARED_CORPORA}\n`);
  } else {
    const corpus = join(DATA_DIR, `synthetic-${DEMO_TEXT_BYTES}.jsonl.gz`);
    if (!existsSync(corpus)) {
      ctx.stderr.write(`news demo: generating a SYNTHETIC demo corpus (made-up words, not news) in ${corpus}\n`);
      await writeSyntheticCorpus(corpus, { ...defaultSyntheticCorpusOptions, textBytes: DEMO_TEXT_BYTES });
    }
    inputs = [corpus];
    label = 'synthetic';
  }
  const key = await inputsKey(inputs, label);
  const out = join(DATA_DIR, `demo-release-${label}-${key}`);
  if (existsSync(join(out, INDEX_MANIFEST_FILE))) {
    ctx.stderr.write(`news demo: reusing the release in ${out}\n`);
    return out;
  }
  ctx.stderr.write(`news demo: building a release in ${out} (once; later starts reuse it)\n`);
  const progress = createProgressReporter(ctx.stderr, ctx.logger);
  try {
    await buildRelease({
      inputs,
      out,
      indexVersion: `demo-${label}-${key}`,
      skipBad: true,
      force: true,
      onProgress: (p) => progress.report(p),
    });
  } finally {
    progress.end();
  }
  return out;
}

/** `news demo [--port N]` (what `npm start` runs): build a release once, then serve it. */
export const demoCommand: CliCommand = (program: Command, ctx) => {
  program
    .command('demo')
    .description(
      'build a demo release once (real corpora beside the repo if present, else a synthetic corpus) and serve it',
    )
    .option('--port <n>', 'gateway port (0 picks a free one)', parsePort, 8080)
    .option('--synthetic', 'use the generated synthetic corpus even when the real corpora are present', false)
    .action(
      action(ctx, 'demo', async (flags: { port: number; synthetic: boolean }) => {
        const release = await ensureDemoRelease(ctx, flags.synthetic);
        await serveRelease(ctx, release, flags.port);
      }),
    );
};
