import { SHARD_KINDS, isShardKind, type ShardKind } from '../shard/index.ts';
import { parsePeriodSelection, type PeriodSelection } from './distributed/period-selection.ts';
import { BuildError } from './errors.ts';
import { INDEX_NAME_PATTERN, INDEX_VERSION_PATTERN } from './layout.ts';
import { defaultMemoryBytes, resolvePartBytes, type IndexPlan } from './part-plan.ts';
import type { BuildStages } from './build-stages.ts';

export type ShardPeriod = 'month' | 'year';

export type BuildPhase = 'read' | 'index' | 'metadata' | 'manifest' | 'done';

/** A snapshot of a running build, for progress lines. */
export interface BuildProgress {
  readonly phase: BuildPhase;
  readonly records: number;
  readonly skipped: number;
  /** Input bytes consumed (compressed bytes for .gz) and their total. */
  readonly inputBytes: number;
  readonly inputTotalBytes: number;
  /** Article text bytes written into shards (separators included). */
  readonly textBytes: number;
  /** Text bytes of the shards whose suffix array is built, and of all shards. */
  readonly indexedBytes: number;
  readonly indexTotalBytes: number;
  readonly shardsDone: number;
  readonly shardsTotal: number;
  readonly elapsedMs: number;
  /** Where the time went so far (build-stages.ts). */
  readonly stages: BuildStages;
}

export interface BuildReleaseOptions {
  /** Files or folders of .jsonl, .jsonl.gz, .parquet. */
  readonly inputs: readonly string[];
  readonly out: string;
  readonly indexVersion: string;
  readonly indexName: string;
  readonly period: ShardPeriod;
  /** `hostname,country,country_source,country_confidence` CSV compiled into the release. */
  readonly countries?: string | undefined;
  readonly skipBad: boolean;
  /** Replace an existing non-empty `out`. */
  readonly force: boolean;
  /** Index kind of every shard: suffix array, or compressed FM-index (src/shard/compressed/DESIGN.md). */
  readonly kind: ShardKind;
  /** Shards whose suffix arrays are built at once at most (one per core); fewer when the memory budget says so. */
  readonly concurrency: number;
  /** The build's RAM budget in bytes (default: half the machine); decides the default part size and parallel sorts. */
  readonly memoryBytes?: number | undefined;
  /** Largest part (shard) of a period in text bytes; default: the largest one sort can hold within memoryBytes. */
  readonly partBytes?: number | undefined;
  /**
   * Build only a part of the release: the crawl months this spec selects (`2019,2021..2023`, `2019-01..2019-06`;
   * whole years with period 'year'). The output holds their shards, the whole metadata store of every year they
   * touch, and a part manifest for `assembleRelease`.
   */
  readonly onlyPeriods?: string | undefined;
  /** Write each shard's word-count table (default true; false only to measure what they cost, bench/frequencies.ts). */
  readonly wordCounts?: boolean | undefined;
  /** Cluster exact and near-duplicate articles into stories and write the story files (default true). */
  readonly stories: boolean;
  /** Called once after reading, before any sort, with the plan (parts, parallel sorts, peak memory, sorter). */
  readonly onPlan?: ((plan: IndexPlan) => void) | undefined;
  readonly signal?: AbortSignal | undefined;
  readonly onProgress?: ((p: BuildProgress) => void) | undefined;
  /** Each skipped record's `file:line: reason`. */
  readonly onSkip?: ((where: string) => void) | undefined;
}

export const defaultBuildOptions = {
  indexName: 'news',
  period: 'month',
  skipBad: false,
  force: false,
  kind: 'sa',
  concurrency: 2,
  stories: true,
} as const satisfies Partial<BuildReleaseOptions>;

export type BuildReleaseInput = Omit<BuildReleaseOptions, keyof typeof defaultBuildOptions> &
  Partial<BuildReleaseOptions>;

export interface BuildSummary {
  readonly out: string;
  readonly indexVersion: string;
  readonly indexName: string;
  readonly documents: number;
  readonly shards: number;
  readonly years: number;
  /** Article text bytes indexed (separators included). */
  readonly textBytes: number;
  /** Bytes of shard files and metadata stores. */
  readonly indexBytes: number;
  readonly metadataBytes: number;
  /** Bytes of the story files (0 without stories). */
  readonly storyBytes: number;
  readonly skipped: number;
  /** A part build (`onlyPeriods`): the crawl years it holds; undefined for a whole release. */
  readonly partYears?: readonly string[] | undefined;
  readonly seconds: number;
  /** Text MB (10^6 bytes) per second of wall time. */
  readonly mbPerSecond: number;
  /** Where the time went: each phase's wall and CPU, the summed time of the stages that overlap. */
  readonly stages: BuildStages;
}

/** Options with the memory budget, part size and (for a part build) the selected years decided. */
export type ResolvedBuildOptions = BuildReleaseOptions & {
  readonly memoryBytes: number;
  readonly partBytes: number;
  readonly selection: PeriodSelection | undefined;
};

export function resolveBuildOptions(input: BuildReleaseInput): ResolvedBuildOptions {
  const o: BuildReleaseOptions = { ...defaultBuildOptions, ...input };
  if (o.inputs.length === 0)
    throw new BuildError(
      'invalid_option',
      'no input given; pass --input with .jsonl, .jsonl.gz or .parquet files or folders',
    );
  if (!INDEX_VERSION_PATTERN.test(o.indexVersion)) {
    throw new BuildError(
      'invalid_option',
      `index version ${JSON.stringify(o.indexVersion)} is not allowed; use letters, digits and . _ : + - (e.g. 2024-06-01.1)`,
    );
  }
  if (!INDEX_NAME_PATTERN.test(o.indexName))
    throw new BuildError(
      'invalid_option',
      `index name ${JSON.stringify(o.indexName)} must match ^[a-z0-9_]+$ (at most 100 characters)`,
    );
  if (o.period !== 'month' && o.period !== 'year')
    throw new BuildError('invalid_option', `period ${JSON.stringify(o.period)} must be month or year`);
  if (!isShardKind(o.kind))
    throw new BuildError('invalid_option', `kind ${JSON.stringify(o.kind)} must be one of ${SHARD_KINDS.join(', ')}`);
  if (!Number.isInteger(o.concurrency) || o.concurrency < 1)
    throw new BuildError('invalid_option', 'concurrency must be a positive integer');
  const memoryBytes = o.memoryBytes ?? defaultMemoryBytes();
  const selection = o.onlyPeriods === undefined ? undefined : parsePeriodSelection(o.onlyPeriods, o.period === 'year');
  return { ...o, memoryBytes, partBytes: resolvePartBytes(memoryBytes, o.partBytes, o.kind), selection };
}
