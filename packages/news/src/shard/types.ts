import type { ShardKind } from './kinds.ts';

/**
 * The contract of one shard of the full-text index: a byte-level suffix array over the shard's text,
 * where every article's UTF-8 bytes are preceded by one 0xFF byte. Two readers implement it (whole
 * shard in memory; positional reads of the files on disk) and one contract test checks both.
 *
 * Every position, length and offset here is in bytes. Ranks are positions in the shard's sorted
 * suffix order, 0 ≤ rank < textBytes.
 */

/** A half-open interval [lo, hi) of suffix-array ranks: the suffixes that start with the query. */
export interface RankInterval {
  readonly lo: number;
  readonly hi: number;
}

/** Where a rank's suffix starts. */
export interface Location {
  /** Shard-local article number, 0-based, in shard order. */
  readonly doc: number;
  /** Byte offset of the match inside the article's text (the separator is not part of the text). */
  readonly offset: number;
  /** Absolute byte position in the shard text. */
  readonly pos: number;
}

/** One piece of a window: `[text, null]` for context, `[match, "0"]` for an occurrence of the query. */
export type Span = readonly [string, string | null];

/** The get_doc window: see the design doc, "get_doc window". */
export interface DocWindow {
  readonly doc: number;
  /** Byte length of the whole article. */
  readonly docLen: number;
  /** Byte length of `text`. */
  readonly dispLen: number;
  /** Byte offset of the match inside `text`. */
  readonly needleOffset: number;
  /** Byte offset of `text` inside the article. */
  readonly dispStart: number;
  readonly text: string;
  readonly spans: readonly Span[];
}

export interface ShardStats {
  /** Indexed text bytes, separators included (the length of the suffix array). */
  readonly textBytes: number;
  readonly docCount: number;
  /** Bytes per suffix-array pointer: 4 (or 5 for shards over 4 GiB, see DESIGN.md). */
  readonly pointerBytes: number;
}

export interface ShardReader {
  readonly stats: ShardStats;
  /** The index kind behind the contract (what its operations cost); absent in test doubles: treated as `sa`. */
  readonly kind?: ShardKind;
  /** Number of (overlapping) occurrences of `query`. The empty query counts text bytes, separators excluded. */
  count(query: Uint8Array): number;
  /** Rank interval of suffixes starting with `query` (the whole [0, textBytes) for the empty query). */
  find(query: Uint8Array): RankInterval;
  /**
   * Optional fast path for searches that branch byte by byte (case-insensitive matching): the sub-interval of `iv`,
   * whose suffixes all share their first `depth` bytes, whose byte at `depth` equals `byte`. Without it, callers
   * search the whole prefix with `find`.
   */
  narrow?(iv: RankInterval, depth: number, byte: number): RankInterval;
  /**
   * Optional: the shard text's bytes [start, end) (positions as in `Location.pos`, clipped to the text). Lets the
   * matching rules look at a few bytes around an occurrence without building a window. Possibly a view of the
   * reader's own memory, like `documentView`: read it at once, never change or keep it.
   */
  readText?(start: number, end: number): Uint8Array;
  /** Text position of the suffix at `rank`. Throws RangeError outside [0, textBytes). */
  locate(rank: number): Location;
  /**
   * `locate` of every rank, in order (a page of occurrences): equal to `ranks.map((r) => locate(r))`; a RangeError, before
   * any walk, if any rank is out of range. The compressed kind walks the ranks in one native call, several
   * walks interleaved so their cache misses overlap; the SA kind reads the ranks one by one.
   */
  locateMany(ranks: readonly number[]): Location[];
  /**
   * `locate(r).pos` of every rank in [lo, hi), written to `out[at…]` (no article lookup, no object per rank): for
   * callers that sort the positions and walk the articles in text order. A RangeError, before any write, when the
   * range leaves [0, textBytes) or `out` has no room. A Uint32Array holds them for a text of at most 2^32 bytes.
   * The SA kind in memory copies its suffix array.
   */
  positionsInto(lo: number, hi: number, out: Float64Array | Uint32Array, at: number): void;
  /**
   * Context window around the match at `rank`: [max(docStart, p − maxCtxLen), min(docEnd, p + needleLen + maxCtxLen)),
   * shrunk inward to UTF-8 character boundaries, with spans marking every non-overlapping occurrence of `query`.
   * `maxCtxLen = Infinity` returns the whole article.
   */
  window(rank: number, query: Uint8Array, maxCtxLen: number): DocWindow;
  /** Byte length of a shard-local article. */
  documentLength(doc: number): number;
  /** Text position of the article's first byte: `locate(r).pos - locate(r).offset` for any rank in it. */
  documentStart(doc: number): number;
  /** The UTF-8 bytes of a shard-local article. */
  documentBytes(doc: number): Buffer;
  /**
   * The same bytes, possibly a view of the shard's own memory (no copy): read them, never change or keep them. For
   * scans that read many articles once (verifying a query): the copy was a measured part of their cost.
   */
  documentView(doc: number): Buffer;
  close(): void;
}

/** How a shard is read: whole files in RAM, or positional reads of the files for every probe. */
export type ShardOpenMode = 'memory' | 'disk';

/** One file of a built shard, as recorded in release manifests and checked by `verifyShardFiles`. */
export interface ShardFileInfo {
  /** File name inside the shard directory. */
  readonly name: string;
  readonly bytes: number;
  /** Lower-case hex SHA-256 of the file's bytes. */
  readonly sha256: string;
}

/** What a kind's indexer built: the header's numbers and every file of the shard directory. */
export interface ShardFileSet {
  readonly formatVersion: number;
  readonly textBytes: number;
  readonly docCount: number;
  readonly pointerBytes: number;
  readonly files: readonly ShardFileInfo[];
}

/** Streams one shard's text and document offsets to disk as articles arrive (`createShardWriter`). */
export interface ShardWriter {
  /** Appends one article's UTF-8 bytes; returns its shard-local document number. */
  append(doc: Uint8Array): number;
  readonly textBytes: number;
  readonly docCount: number;
  /** Flushes and closes the text and offset files; the kind's indexer then builds its index. */
  finish(): Promise<void>;
}

export interface IndexShardOptions {
  /** Called at phase boundaries: `read-text`, `check-docs`, `sort`, `write-sa`, `done`. Units are bytes. */
  readonly onProgress?: (phase: string, done: number, total: number) => void;
  /**
   * Stops the compressed kind's build with the signal's reason, after the sort and between slices of its FM build.
   * The SA kind does not read it: after its sort it only writes and hashes its files (seconds, not minutes).
   */
  readonly signal?: AbortSignal;
  /**
   * Every document is short (a headline index): a kind that can read documents back from its index alone may store
   * no separate text (the compressed kind's `from-index` text). Readers answer the same either way.
   */
  readonly shortDocuments?: boolean;
}
