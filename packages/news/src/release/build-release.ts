import { rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { discoverInputFiles, readArticles, type ReadStats } from '../corpus/index.ts';
import { loadCountryTable, type CountryTable } from '../metadata/index.ts';
import { ArticleSink } from './article-sink.ts';
import {
  resolveBuildOptions,
  type BuildPhase,
  type BuildProgress,
  type BuildReleaseInput,
  type BuildReleaseOptions,
  type BuildSummary,
  type ResolvedBuildOptions,
} from './build-options.ts';
import { InputCensus } from './distributed/input-census.ts';
import { writePartManifest } from './distributed/part-manifest.ts';
import { planIndexing } from './part-plan.ts';
import { BuildError } from './errors.ts';
import { StageClock } from './build-stages.ts';
import { ShardIndexer } from './index-shards.ts';
import { createPartialDir, putInPlace, refuseExistingOutput } from './output-dir.ts';
import { StoryCollector } from '../stories/index.ts';
import { writeStoryFiles } from './story-files.ts';
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
  const partial = await createPartialDir(out);
  const started = Date.now();
  const months = options.selection && new Set(options.selection.months);
  const writes = months
    ? (year: string, month: number): boolean => months.has(`${year}-${String(month).padStart(2, '0')}`)
    : undefined;
  const clock = new StageClock();
  const progress = createProgress(
    options,
    files.reduce((n, f) => n + f.bytes, 0),
    started,
    clock,
  );
  // A month's parts are indexed as soon as each is complete, while the input is still read: reading takes one core.
  const indexer = new ShardIndexer(partial, options, progress, clock);
  const sink = new ArticleSink(
    partial,
    options.indexName,
    options.period,
    countries,
    options.partBytes,
    writes,
    (part) => indexer.addEarly(part),
  );
  const stories = options.stories ? new StoryCollector() : undefined;
  try {
    const census = options.selection ? new InputCensus() : undefined;
    const stats = await readAll(options, files, sink, progress, indexer, census, stories);
    if (stats.records === 0) {
      throw new BuildError(
        'no_articles',
        `no articles in ${options.inputs.join(', ')}${stats.skipped ? ` (all ${stats.skipped} records were bad)` : ''}; check the input files`,
      );
    }
    const input = census?.finish(stats.skipped);
    if (input && options.selection && sink.writtenDocs === 0) {
      throw new BuildError(
        'no_articles',
        `--only-periods ${options.selection.spec} selects no article: the input holds crawl years ${input.years.map((y) => y.year).join(', ')}; select some of those`,
      );
    }
    const shards = await sink.finishShards();
    await rm(join(partial, 'spool'), { recursive: true, force: true });
    throwIfAborted(options.signal);
    // Every part's size is known now: the plan (logged), and what the parts not yet started need (memory, disk)
    // is refused before their sorts start.
    options.onPlan?.(
      planIndexing(
        shards.map((s) => ({ id: s.shardId, textBytes: s.textBytes })),
        options.memoryBytes,
        options.concurrency,
        options.kind,
      ),
    );
    const indexed = await indexer.finish(shards);
    progress.update({ phase: 'metadata' });
    const years = await sink.finishStores(options.indexVersion);
    throwIfAborted(options.signal);
    const storiesEntry =
      stories &&
      (await clock.time('stories', () =>
        writeStoryFiles(partial, options.indexName, stories, new Set(sink.yearDocCounts().keys())),
      ));

    progress.update({ phase: 'manifest' });
    const totals = await writeManifests({
      root: partial,
      options,
      indexed,
      countries,
      writeCountries,
      yearDocCounts: sink.yearDocCounts(),
      stories: storiesEntry,
    });
    if (input && options.selection) {
      await writePartManifest(partial, {
        indexVersion: options.indexVersion,
        indexName: options.indexName,
        period: options.period,
        kind: options.kind,
        onlyPeriods: options.selection.spec,
        years: options.selection.years,
        months: options.selection.months,
        input,
      });
    }
    await putInPlace(partial, out, options.force);
    progress.update({ phase: 'done' });
    const seconds = (Date.now() - started) / 1000;
    return {
      out,
      indexVersion: options.indexVersion,
      indexName: options.indexName,
      documents: totals.documents,
      shards: indexed.length,
      years,
      textBytes: totals.textBytes,
      indexBytes: totals.indexBytes,
      metadataBytes: totals.metadataBytes,
      storyBytes: storiesEntry?.years.reduce((n, y) => n + y.bytes, 0) ?? 0,
      skipped: stats.skipped,
      partYears: options.selection?.years,
      seconds,
      mbPerSecond: totals.textBytes / 1e6 / Math.max(seconds, 1e-3),
      stages: clock.stages(),
    };
  } catch (e) {
    sink.abort();
    stories?.close();
    await indexer.stop();
    await rm(partial, { recursive: true, force: true });
    throw e;
  }
}

/** Streams the input into the sink; a part build (census given) reads everything but keeps only its years. */
async function readAll(
  options: ResolvedBuildOptions,
  files: Awaited<ReturnType<typeof discoverInputFiles>>,
  sink: ArticleSink,
  progress: Progress,
  indexer: ShardIndexer,
  census?: InputCensus,
  stories?: StoryCollector,
): Promise<ReadStats> {
  const stats: ReadStats = { records: 0, skipped: 0 };
  let inputBytes = 0;
  const years = options.selection ? new Set(options.selection.years) : undefined;
  const articles = readArticles(
    files,
    {
      skipBad: options.skipBad,
      onSkip: options.onSkip,
      onInputBytes: (n) => {
        inputBytes = n;
      },
    },
    stats,
  );
  for await (const record of articles) {
    census?.add(record);
    // Every record, also in a part build: story ids number the whole release, so all parts must agree on them.
    const signing = stories?.add(record.crawl.year, record.crawl.month, record.textXxhash64, record.textBytes);
    if (signing) await signing;
    if (!years || years.has(record.crawl.year)) await sink.add(record);
    if ((stats.records & 255) === 0) {
      throwIfAborted(options.signal);
      indexer.throwIfFailed();
      progress.update({
        phase: 'read',
        records: stats.records,
        skipped: stats.skipped,
        inputBytes,
        textBytes: sink.textBytes,
      });
    }
  }
  progress.update(
    { phase: 'read', records: stats.records, skipped: stats.skipped, inputBytes, textBytes: sink.textBytes },
    true,
  );
  return stats;
}

async function writeCountries(path: string, table: CountryTable): Promise<void> {
  await writeFile(path, table.toCsv());
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new BuildError('aborted', 'build interrupted; nothing was written, run news build again');
}

export interface Progress {
  update(p: Partial<BuildProgress>, force?: boolean): void;
}

function createProgress(
  options: BuildReleaseOptions,
  inputTotalBytes: number,
  started: number,
  clock: StageClock,
): Progress {
  let state: BuildProgress = {
    phase: 'read',
    records: 0,
    skipped: 0,
    inputBytes: 0,
    inputTotalBytes,
    textBytes: 0,
    indexedBytes: 0,
    indexTotalBytes: 0,
    shardsDone: 0,
    shardsTotal: 0,
    elapsedMs: 0,
    stages: clock.stages(),
  };
  clock.enter('read');
  let last = 0;
  return {
    update(p, force = false) {
      const phaseChange = p.phase !== undefined && p.phase !== state.phase;
      if (phaseChange) clock.enter(p.phase as BuildPhase);
      state = { ...state, ...p, elapsedMs: Date.now() - started, stages: clock.stages() };
      const now = Date.now();
      // Throttled: a progress line per record would cost more than the build.
      if (force || phaseChange || now - last >= 250) {
        last = now;
        options.onProgress?.(state);
      }
    },
  };
}
