/**
 * The shared release of all real corpora with its story table, and the JSONL articles in release order, for the
 * tests of stories past the exact bound (estimate, search, timeline) against a scan of the corpora.
 */
import { afterAll, beforeAll } from 'vitest';
import { openRelease, type OpenRelease, type ReleaseIndex } from '../../src/release/index.ts';
import type { StoryTable } from '../../src/stories/index.ts';
import { corpusFiles, readJsonlGz } from './corpora.ts';
import { sharedRelease } from './shared-release.ts';
import { releaseOrder } from './story-brute.ts';

export interface StoryCorpora {
  readonly real: OpenRelease;
  readonly table: StoryTable;
  readonly records: readonly { year: string; docIx: number; text: Buffer; warc_date: string }[];
}

export async function openStoryCorpora(): Promise<StoryCorpora> {
  // Memory mode, as a worker serves by default: these files make thousands of sampled calls, and on disk each one's
  // suffix-array probes and text reads are syscalls (measured: 38 → 25 CPU-s for the estimate file under load 16).
  // The disk reader keeps its real-corpora coverage in release-stories and the v2 stack (v2-support.ts).
  const real = await openRelease((await sharedRelease({ inputs: corpusFiles() })).dir, { mode: 'memory' });
  const table = (real.indexes.get('news') as ReleaseIndex).stories;
  if (!table) throw new Error('the shared release has no story files');
  const records = releaseOrder(
    corpusFiles().flatMap((f) => readJsonlGz(f) as { text: string; warc_date: string }[]),
  ).map(({ record, year, docIx }) => ({ year, docIx, text: Buffer.from(record.text), warc_date: record.warc_date }));
  return { real, table, records };
}

/** Opens the corpora before the file's tests and closes them after; the getter gives them inside a test. */
export function useStoryCorpora(): () => StoryCorpora {
  let corpora: StoryCorpora | undefined;
  beforeAll(async () => {
    corpora = await openStoryCorpora();
  }, 180_000);
  afterAll(() => corpora?.real.close());
  return () => {
    if (corpora === undefined) throw new Error('the story corpora are opened in beforeAll');
    return corpora;
  };
}
