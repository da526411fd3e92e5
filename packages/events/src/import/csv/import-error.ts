/** One refused row: its line in the file (1 = the header) and why, as the REST write would say it. */
export interface RowProblem {
  readonly line: number;
  readonly reason: string;
}

/**
 * Why a whole CSV file is refused: the closed set the CLI prints and the REST route maps to 400 (`csv_invalid`) or
 * 413 (`csv_too_large`), src/import/csv/import.routes.ts.
 */
export type CsvErrorKind = 'too_large' | 'malformed' | 'header' | 'bad_rows' | 'bad_option';

export class CsvImportError extends Error {
  constructor(
    readonly kind: CsvErrorKind,
    message: string,
    readonly problems: readonly RowProblem[] = [],
  ) {
    super(message);
  }
}
