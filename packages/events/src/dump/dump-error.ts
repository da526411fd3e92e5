/** Why a dump is refused; the CLI prints the message and exits 2. */
export type DumpErrorKind = 'not_a_dump' | 'version' | 'schema' | 'not_empty' | 'malformed' | 'truncated';

export class DumpError extends Error {
  constructor(
    readonly kind: DumpErrorKind,
    message: string,
  ) {
    super(message);
  }
}
