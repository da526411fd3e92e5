import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import {
  LSH_BANDS,
  LSH_ROWS,
  NEAR_THRESHOLD,
  readStoryFile,
  SHINGLE_WORDS,
  SIGNATURE_SLOTS,
  STORY_FILE_FORMAT_VERSION,
  StoryFileError,
  StoryTable,
  writeStoryFile,
  type StoryCollector,
} from '../stories/index.ts';
import { ReleaseVerificationError } from './errors.ts';
import { digestFile } from './file-digest.ts';
import { resolveRel, storiesRelPath } from './layout.ts';
import type { StoriesEntry } from './manifest.ts';

/**
 * Clusters what the collector saw (the whole input, also in a part build, so every part numbers stories alike)
 * and writes the story files of `years` (those this build holds). Returns the manifest entry.
 */
export async function writeStoryFiles(
  root: string,
  indexName: string,
  collector: StoryCollector,
  years: ReadonlySet<string>,
): Promise<StoriesEntry> {
  const all = await collector.finish();
  const documents = all.reduce((n, y) => n + y.exact.length, 0);
  const entries: StoriesEntry['years'] = [];
  for (const y of all) {
    if (!years.has(y.year)) continue;
    const file = storiesRelPath(indexName, y.year);
    const path = resolveRel(root, file);
    await mkdir(dirname(path), { recursive: true });
    await writeStoryFile(path, y, documents);
    entries.push({ year: y.year, doc_count: y.exact.length, file, ...(await digestFile(path)) });
  }
  return {
    format_version: STORY_FILE_FORMAT_VERSION,
    shingle_words: SHINGLE_WORDS,
    signature_slots: SIGNATURE_SLOTS,
    bands: LSH_BANDS,
    rows: LSH_ROWS,
    threshold: NEAR_THRESHOLD,
    documents,
    years: entries,
  };
}

/** Opens a release's story table (every year, whatever shards are served: story sizes span the release). */
export async function openStoryTable(dir: string, entry: StoriesEntry): Promise<StoryTable> {
  const files = [];
  for (const y of entry.years) {
    try {
      const f = await readStoryFile(resolveRel(dir, y.file), { year: y.year, docCount: y.doc_count });
      if (f.releaseDocs !== entry.documents)
        throw new StoryFileError(
          'file_corrupt',
          `${y.file} numbers ${f.releaseDocs} articles, the manifest says ${entry.documents}`,
        );
      files.push(f);
    } catch (e) {
      if (!(e instanceof StoryFileError)) throw e;
      throw new ReleaseVerificationError(e.code, `release ${dir}: ${e.message}; rebuild the release with news build`);
    }
  }
  return new StoryTable(files);
}
