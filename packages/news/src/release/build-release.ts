import { randomBytes } from 'node:crypto';
import { readdir, rename, rm, rmdir, mkdir, statfs, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { discoverInputFiles, readArticles, type ReadStats } from '../corpus/index.ts';
import { loadCountryTable, type CountryTable } from '../metadata/index.ts';
import { ArticleSink } from './article-sink.ts';
import { resolveBuildOptions, type BuildProgress, type BuildReleaseInput, type BuildReleaseOptions, type BuildSummary } from './build-options.ts';
import { planIndexing } from './part-plan.ts';
import { BuildError } from './errors.ts';
import { indexShards } from './index-shards.ts';
import { writeManifests } from './write-manifests.ts';

/**
 * Builds a release from corpus files: shards per crawl period, per-year metadata stores, the optional country
 * table and the two manifests. Everything is written into `<out>.partial-<random>` and renamed into place only
 * when complete; a failure or an abort (options.signal) removes it.
 * @example await buildRelease({ inputs: ['corpus/'], out: 'release', indexVersion: '2024-06-01' })
 */
export async function buildRelease(input: BuildReleaseInput): Promise<BuildSummary> {
  const options = resolveBuildOptions(input);
  const out = resolve(options.out);
  await refuseExistingOutput(out, options.force);
  const files = await discoverInputFiles(options.inputs);
  const countries = options.countries ? await loadCountryTable(options.countries) : undefined;

  const partial = `${out}.partial-${randomBytes(6).toString('hex')}`;
  await mkdir(dirname(out), { recursive: true });
  await mkdir(partial);
  const started = Date.now();
  const sink = new ArticleSink(partial, options.indexName, options.period, countries, options.partBytes);
  try {
    const progress = createProgress(options, files.reduce((n, f) => n + f.bytes, 0), started);
    const stats = await readAll(options, files, sink, progress);
    if (stats.records === 0) {
      throw new BuildError('no_articles', `no articles in ${options.inputs.join(', ')}${stats.skipped ? ` (all ${stats.skipped} records were bad)` : ''}; check the input files`);
    }
    const shards = await sink.finishShards();
    await rm(join(partial, 'spool'), { recursive: true, force: true });
    throwIfAborted(options.signal);
    // Every part's size is known now: refuse what cannot fit (memory, disk) before the first sort starts.
    const plan = planIndexing(shards.map((s) => ({ id: s.shardId, textBytes: s.textBytes })), options.memoryBytes, options.concurrency);
    await refuseShortDisk(partial, plan.textBytes);
    options.onPlan?.(plan);

    const indexed = await indexShards(partial, shards, options, progress);
    progress.update({ phase: 'metadata' });
    const years = await sink.finishStores(options.indexVersion);
    throwIfAborted(options.signal);

    progress.update({ phase: 'manifest' });
    const totals = await writeManifests({ root: partial, options, indexed, countries, writeCountries });
    await putInPlace(partial, out, options.force);
    progress.update({ phase: 'done' });
    const seconds = (Date.now() - started) / 1000;
    return {
      out, indexVersion: options.indexVersion, indexName: options.indexName, documents: totals.documents,
      shards: indexed.length, years, textBytes: totals.textBytes, indexBytes: totals.indexBytes,
      metadataBytes: totals.metadataBytes, skipped: stats.skipped, seconds, mbPerSecond: totals.textBytes / 1e6 / Math.max(seconds, 1e-3),
    };
  } catch (e) {
    sink.abort();
    await rm(partial, { recursive: true, force: true });
    throw e;
  }
}

async function readAll(options: BuildReleaseOptions, files: Awaited<ReturnType<typeof discoverInputFiles>>, sink: ArticleSink, progress: Progress): Promise<ReadStats> {
  const stats: ReadStats = { records: 0, skipped: 0 };
  let inputBytes = 0;
  const articles = readArticles(files, { skipBad: options.skipBad, onSkip: options.onSkip, onInputBytes: (n) => { inputBytes = n; } }, stats);
  for await (const record of articles) {
    await sink.add(record);
    if ((stats.records & 255) === 0) {
      throwIfAborted(options.signal);
      progress.update({ phase: 'read', records: stats.records, skipped: stats.skipped, inputBytes, textBytes: sink.textBytes });
    }
  }
  progress.update({ phase: 'read', records: stats.records, skipped: stats.skipped, inputBytes, textBytes: sink.textBytes }, true);
  return stats;
}

/** The suffix arrays take 4 bytes per text byte on disk, beside the text already written. */
async function refuseShortDisk(dir: string, textBytes: number): Promise<void> {
  const fs = await statfs(dir);
  const free = fs.bavail * fs.bsize;
  const needed = 4 * textBytes * 1.02 + (64 << 20);
  if (free < needed) {
    throw new BuildError('no_space', `the suffix arrays need about ${(needed / 1e9).toFixed(2)} GB more disk beside ${dir}, but only ${(free / 1e9).toFixed(2)} GB is free; free some space or build to another disk (--out)`);
  }
}

async function writeCountries(path: string, table: CountryTable): Promise<void> {
  await writeFile(path, table.toCsv());
}

async function refuseExistingOutput(out: string, force: boolean): Promise<void> {
  const entries = await readdir(out).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return [];
    if (e.code === 'ENOTDIR') throw new BuildError('output_exists', `--out ${out} is a file; choose a folder path`);
    throw e;
  });
  if (entries.length > 0 && !force) {
    throw new BuildError('output_exists', `--out ${out} exists and is not empty; choose a new folder or pass --force to replace it`);
  }
}

/** Renames the finished release into place; with --force the old one is moved aside first and removed after. */
async function putInPlace(partial: string, out: string, force: boolean): Promise<void> {
  const old = `${out}.old-${randomBytes(6).toString('hex')}`;
  let movedAside = false;
  if (force) {
    movedAside = await rename(out, old).then(() => true, (e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') return false;
      throw e;
    });
  } else {
    // An empty folder may stand there (checked before the build); rename cannot replace it.
    await rmdir(out).catch((e: NodeJS.ErrnoException) => {
      if (e.code !== 'ENOENT') throw e;
    });
  }
  await rename(partial, out);
  if (movedAside) await rm(old, { recursive: true, force: true });
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new BuildError('aborted', 'build interrupted; nothing was written, run news build again');
}

export interface Progress {
  update(p: Partial<BuildProgress>, force?: boolean): void;
}

function createProgress(options: BuildReleaseOptions, inputTotalBytes: number, started: number): Progress {
  let state: BuildProgress = {
    phase: 'read', records: 0, skipped: 0, inputBytes: 0, inputTotalBytes, textBytes: 0,
    indexedBytes: 0, indexTotalBytes: 0, shardsDone: 0, shardsTotal: 0, elapsedMs: 0,
  };
  let last = 0;
  return {
    update(p, force = false) {
      const phaseChange = p.phase !== undefined && p.phase !== state.phase;
      state = { ...state, ...p, elapsedMs: Date.now() - started };
      const now = Date.now();
      // Throttled: a progress line per record would cost more than the build.
      if (force || phaseChange || now - last >= 250) {
        last = now;
        options.onProgress?.(state);
      }
    },
  };
}
