/** A shard file is missing, truncated, from another format version or otherwise not what its header says. */
export class ShardFormatError extends Error {
  override readonly name = 'ShardFormatError';
  readonly code = 'shard_format' as const;
  constructor(
    /** The file at fault (absolute or as given). */
    readonly file: string,
    problem: string,
  ) {
    super(`${file}: ${problem}`);
  }
}

/** A shard would exceed what format v1 can index (MAX_SHARD_TEXT_BYTES); raised before any sorting. */
export class ShardTooLargeError extends Error {
  override readonly name = 'ShardTooLargeError';
  readonly code = 'shard_too_large' as const;
  constructor(
    readonly dir: string,
    readonly textBytes: number,
    readonly limit: number,
  ) {
    super(
      `shard ${dir} would hold ${textBytes} text bytes, over the ${limit}-byte limit of shard format v1 ` +
        '(32-bit suffix sort). Split it into parts: news build --part-bytes N with N below the limit (the default is).',
    );
  }
}

/** A shard file cannot be held in memory (too large for one array, or the allocation failed); disk mode still opens it. */
export class ShardMemoryError extends Error {
  override readonly name = 'ShardMemoryError';
  readonly code = 'shard_memory' as const;
  constructor(
    readonly file: string,
    readonly bytes: number,
    reason: string,
  ) {
    super(
      `${file}: cannot load its ${bytes} bytes into memory (${reason}); open it in disk mode (news worker --mode disk, news count --disk) or with more RAM`,
    );
  }
}
