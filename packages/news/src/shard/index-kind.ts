import type { SuffixSorter } from '../suffix-array/index.ts';
import type { IndexShardOptions, ShardFileSet, ShardOpenMode, ShardReader } from './types.ts';
import type { ReadWholeFileOptions } from './whole-file.ts';

/** The numbers of a shard's header.json every kind records, checked against a release manifest. */
export interface ShardHeaderSummary {
  readonly formatVersion: number;
  readonly textBytes: number;
  readonly docCount: number;
  readonly pointerBytes: number;
}

/**
 * What the release builder plans with, per text byte of a part (src/release/part-plan.ts). Measured figures with
 * room to spare; BENCHMARKS.md has the measurements.
 */
export interface IndexKindCost {
  /** Peak RAM of indexing one part, per text byte, overhead aside, when the suffix sort runs with `sorter`. */
  peakBytesPerTextByte(sorter: SuffixSorter): number;
  /** Index files written per text byte. */
  readonly diskBytesPerTextByte: number;
  /**
   * The indexer removes the part's text file once its own files are written: the disk need then peaks while the
   * parts indexed at once are written, instead of growing with every part.
   */
  readonly replacesText: boolean;
}

/**
 * One index kind, in the manner of Kysely's `Dialect`: everything the rest of the code needs of a kind, so callers
 * never test a kind's name. Each kind is one folder (`sa/`, `compressed/`) whose `kind.ts` exports its entry;
 * `kinds.ts` registers it. Every registered kind passes the ShardReader contract and property suites (kinds.test.ts).
 */
export interface IndexKind<Name extends string = string> {
  /** `news build --kind`, `kind` in header.json and in the release manifests. */
  readonly name: Name;
  /** One line for `news build --help`. */
  readonly summary: string;
  /** What its index files are called in messages ("the suffix arrays"). */
  readonly filesNoun: string;
  /** The shard format version this build writes. */
  readonly formatVersion: number;
  /** Every shard format version this build reads (older shards stay readable). */
  readonly readableFormatVersions: readonly number[];
  readonly cost: IndexKindCost;
  /** Builds the index of a shard written by `createShardWriter`; writes header.json last. */
  index(dir: string, opts?: IndexShardOptions): Promise<ShardFileSet>;
  /**
   * Opens a built shard; ShardFormatError (naming the file) when a file does not match the header. `read` overrides
   * the kind's own way of loading whole files in memory mode (mapped or read in slices).
   */
  open(dir: string, mode: ShardOpenMode, read?: Partial<ReadWholeFileOptions>): ShardReader;
  /** Reads and validates header.json; ShardFormatError names it when it is not this kind's, or broken. */
  readHeader(dir: string): ShardHeaderSummary;
}
