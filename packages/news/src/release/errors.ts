/** Why a build (or an assembly of parts) stopped; every message says what to do. */
export type BuildErrorCode =
  | 'invalid_option'
  | 'output_exists'
  | 'no_articles'
  | 'shard_too_large'
  | 'no_space'
  | 'aborted'
  | 'parts_mismatch'
  | 'parts_overlap'
  | 'periods_missing';

export class BuildError extends Error {
  override readonly name = 'BuildError';
  constructor(
    readonly code: BuildErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** Why a release was refused on open. */
export type ReleaseVerificationCode =
  | 'manifest_missing'
  | 'manifest_invalid'
  | 'manifest_mismatch'
  | 'index_version_mismatch'
  | 'format_unsupported'
  | 'file_missing'
  | 'file_corrupt';

/** A release that must not be served: ONE line saying what differs and what to do. */
export class ReleaseVerificationError extends Error {
  override readonly name = 'ReleaseVerificationError';
  constructor(
    readonly code: ReleaseVerificationCode,
    message: string,
  ) {
    super(message);
  }
}
