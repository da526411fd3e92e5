/**
 * Releases of the real corpora built once and shared by every test file that needs the same one: several suites
 * check different behaviours against the same build (all corpora, default options), and building it takes tens of
 * seconds on a loaded 2-core machine. The build lands in a cache folder outside the repository, named by a hash of
 * everything that decides its bytes: the input files' contents, the build options, and the builder's own source
 * (packages/news/src and the native addon). A lock file makes concurrent vitest workers build it once; the others
 * wait for it. The folder appears only complete (built beside it, then renamed), so a crash leaves no half release.
 *
 * Shared releases are read-only: tests open them, serve them and read their files, never write into them (a test
 * that must change a release copies it first). Their files are made read-only to catch that where permissions apply.
 */
import { createHash } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  existsSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeSync,
} from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildRelease } from '../../src/release/index.ts';
import type { ShardKind } from '../../src/shard/index.ts';

/** The cache: in the system temp folder, so a clean CI clone starts empty and nothing lands in the repository. */
export const SHARED_RELEASES_DIR = join(tmpdir(), 'news-test-releases');
/** The index version every shared release carries (part of its key, so one name is enough). */
export const SHARED_VERSION = 'shared-corpora-1';
/** Cache entries not used for this long are removed by the next build (old source hashes pile up otherwise). */
const STALE_MS = 2 * 24 * 3600 * 1000;

const NEWS_DIR = fileURLToPath(new URL('../../', import.meta.url));
const NATIVE_DIR = join(NEWS_DIR, 'native');

export interface SharedReleaseOptions {
  readonly inputs: readonly string[];
  readonly kind?: ShardKind;
  readonly partBytes?: number;
}

export interface SharedRelease {
  readonly dir: string;
  readonly version: string;
  /** Nothing to remove: the release stays cached for the next file; kept so it fits where a built one did. */
  cleanup(): Promise<void>;
}

/**
 * The release of `options.inputs` built with the builder's defaults (month shards, stories and word counts on),
 * `kind` (default suffix array) and `partBytes`, built at most once per machine for the current source.
 */
export async function sharedRelease(options: SharedReleaseOptions): Promise<SharedRelease> {
  const key = releaseKey(options);
  const dir = join(SHARED_RELEASES_DIR, key);
  const done = { dir, version: SHARED_VERSION, cleanup: async () => {} };
  await mkdir(SHARED_RELEASES_DIR, { recursive: true });
  for (;;) {
    if (existsSync(dir)) {
      const now = new Date();
      utimesSync(dir, now, now);
      return done;
    }
    const lock = join(SHARED_RELEASES_DIR, `${key}.lock`);
    if (tryLock(lock)) {
      try {
        if (!existsSync(dir)) await buildInto(dir, options);
      } finally {
        await rm(lock, { force: true });
      }
      continue;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function buildInto(dir: string, options: SharedReleaseOptions): Promise<void> {
  pruneStale();
  const building = `${dir}.building-${process.pid}`;
  await rm(building, { recursive: true, force: true });
  await buildRelease({
    inputs: options.inputs,
    out: join(building, 'release'),
    indexVersion: SHARED_VERSION,
    kind: options.kind ?? 'sa',
    partBytes: options.partBytes,
    concurrency: 2,
  });
  await writeFile(join(building, 'inputs.json'), JSON.stringify(options, null, 2));
  await rename(join(building, 'release'), dir);
  await rm(building, { recursive: true, force: true });
  readOnly(dir);
}

/** Takes the lock, or removes it when its holder has died (a killed run) so the next pass can take it. */
function tryLock(lock: string): boolean {
  try {
    const fd = openSync(lock, 'wx');
    writeSync(fd, String(process.pid));
    closeSync(fd);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    let holder = 0;
    try {
      holder = Number(readFileSync(lock, 'utf8'));
    } catch {
      return false; // released meanwhile
    }
    // An empty file is a holder between open and write; only a dead holder's lock is taken over.
    if (holder > 0 && !alive(holder)) rmSync(lock, { force: true });
    return false;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function releaseKey(options: SharedReleaseOptions): string {
  const h = createHash('sha256');
  h.update(JSON.stringify({ kind: options.kind ?? 'sa', partBytes: options.partBytes ?? null, SHARED_VERSION }));
  for (const input of options.inputs) h.update(input).update(readFileSync(input));
  for (const file of builderFiles()) h.update(relative(NEWS_DIR, file)).update(readFileSync(file));
  return `${options.kind ?? 'sa'}-${h.digest('hex').slice(0, 16)}`;
}

/** Everything the build's output can depend on: the package's non-test source, the addon's C source and binary. */
function builderFiles(): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = join(d, e.name);
      // The addon's build folder holds absolute paths (one per clone); only the binary it made matters.
      if (e.isDirectory()) {
        if (p !== join(NATIVE_DIR, 'build')) walk(p);
      } else if (!e.name.endsWith('.test.ts') && !e.name.endsWith('.md')) out.push(p);
    }
  };
  walk(join(NEWS_DIR, 'src'));
  walk(NATIVE_DIR);
  const addon = join(NATIVE_DIR, 'build', 'Release', 'divsufsort_addon.node');
  if (existsSync(addon)) out.push(addon);
  return out;
}

function readOnly(dir: string): void {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) readOnly(p);
    else chmodSync(p, 0o444);
  }
}

function pruneStale(): void {
  for (const name of readdirSync(SHARED_RELEASES_DIR)) {
    const p = join(SHARED_RELEASES_DIR, name);
    if (name.endsWith('.lock') || Date.now() - statSync(p).mtimeMs < STALE_MS) continue;
    rmSync(p, { recursive: true, force: true });
  }
}
