import { validateArticleRecord, type ArticleRecord } from './article-record.ts';
import { CorpusError } from './errors.ts';
import type { InputFile } from './input-files.ts';
import { readRecords } from './record-source.ts';
import { createTextHasher } from './text-hash.ts';

export interface ReadArticlesOptions {
  /** Skip and count bad records instead of stopping at the first one. */
  readonly skipBad: boolean;
  /** Called for every skipped record with its `file:line: reason`. */
  readonly onSkip?: (where: string) => void;
  /** Input bytes consumed so far across all files (compressed bytes for .gz), for progress and time left. */
  readonly onInputBytes?: (bytes: number) => void;
}

export interface ReadStats {
  records: number;
  skipped: number;
}

/** `file:line` for JSONL, `file:row N` for Parquet. */
export function recordPosition(file: InputFile, line: number): string {
  return file.format === 'parquet' ? `${file.path}:row ${line}` : `${file.path}:${line}`;
}

/**
 * Streams validated articles from the input files in input order. A bad record stops the stream with a
 * `CorpusError('bad_record')` saying `file:line: reason`, unless `skipBad` is set.
 */
export async function* readArticles(
  files: readonly InputFile[],
  options: ReadArticlesOptions,
  stats: ReadStats,
): AsyncGenerator<ArticleRecord> {
  const hash = await createTextHasher();
  let doneBytes = 0;
  for (const file of files) {
    const onBytes = options.onInputBytes ? (n: number) => options.onInputBytes?.(doneBytes + n) : undefined;
    for await (const raw of readRecords(file, onBytes)) {
      const result = raw.ok ? validateArticleRecord(raw.value, hash) : raw;
      if (result.ok) {
        stats.records++;
        yield result.record;
        continue;
      }
      const where = `${recordPosition(file, raw.line)}: ${result.reason}`;
      if (!options.skipBad) {
        throw new CorpusError(
          'bad_record',
          `${where} (fix the record, or pass --skip-bad to skip and count bad records)`,
        );
      }
      stats.skipped++;
      options.onSkip?.(where);
    }
    doneBytes += file.bytes;
    options.onInputBytes?.(doneBytes);
  }
}
