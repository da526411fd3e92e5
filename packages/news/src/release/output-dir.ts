import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rename, rm, rmdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { BuildError } from './errors.ts';

/**
 * Releases (and release parts) are written into `<out>.partial-<random>` beside the target and renamed into place
 * only when complete, so a failed or interrupted run never leaves a half-written release under `out`.
 */
export async function createPartialDir(out: string): Promise<string> {
  const partial = `${out}.partial-${randomBytes(6).toString('hex')}`;
  await mkdir(dirname(out), { recursive: true });
  await mkdir(partial);
  return partial;
}

/** Refuses an `out` that is a file, or a non-empty folder unless `force`; checked before any work. */
export async function refuseExistingOutput(out: string, force: boolean): Promise<void> {
  const entries = await readdir(out).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return [];
    if (e.code === 'ENOTDIR') throw new BuildError('output_exists', `--out ${out} is a file; choose a folder path`);
    throw e;
  });
  if (entries.length > 0 && !force) {
    throw new BuildError(
      'output_exists',
      `--out ${out} exists and is not empty; choose a new folder or pass --force to replace it`,
    );
  }
}

/** Renames the finished folder into place; with force the old one is moved aside first and removed after. */
export async function putInPlace(partial: string, out: string, force: boolean): Promise<void> {
  const old = `${out}.old-${randomBytes(6).toString('hex')}`;
  let movedAside = false;
  if (force) {
    movedAside = await rename(out, old).then(
      () => true,
      (e: NodeJS.ErrnoException) => {
        if (e.code === 'ENOENT') return false;
        throw e;
      },
    );
  } else {
    // An empty folder may stand there (checked before the build); rename cannot replace it.
    await rmdir(out).catch((e: NodeJS.ErrnoException) => {
      if (e.code !== 'ENOENT') throw e;
    });
  }
  await rename(partial, out);
  if (movedAside) await rm(old, { recursive: true, force: true });
}
