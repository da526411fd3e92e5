import { open, writeFile, type FileHandle } from 'node:fs/promises';
import type { YearStories } from './story-collector.ts';

/**
 * A crawl year's story file (`indexes/<name>/stories/<year>.stories`, format version 1), little-endian:
 *   0  "NEWSSTRY"           magic (8 bytes)
 *   8  u32 format_version   1
 *  12  u32 year
 *  16  u32 doc_count        the year's articles
 *  20  u32 base             release number of the year's doc_ix 0
 *  24  u32 release_docs     articles in the whole release (a story id is below it)
 *  28  u32 0                reserved
 *  32  u32 exact[doc_count] story of each doc_ix among equal texts
 *  …   u32 near[doc_count]  story of each doc_ix among near duplicates
 * A story id is the release number (years in order, doc_ix within a year) of the story's first article: 8 bytes per
 * article. Story sizes are counted from the ids when the release opens.
 */
export const STORY_FILE_FORMAT_VERSION = 1;
const MAGIC = 'NEWSSTRY';
const HEADER_BYTES = 32;

export class StoryFileError extends Error {
  override readonly name = 'StoryFileError';
  constructor(
    readonly code: 'format_unsupported' | 'file_corrupt',
    message: string,
  ) {
    super(message);
  }
}

/** A year's stories as read back, with the release size its ids refer to. */
export interface StoryFile extends YearStories {
  readonly releaseDocs: number;
}

/** Writes one year's story file. */
export async function writeStoryFile(path: string, stories: YearStories, releaseDocs: number): Promise<void> {
  const n = stories.exact.length;
  const buf = Buffer.alloc(HEADER_BYTES + 8 * n);
  buf.write(MAGIC, 0, 'latin1');
  buf.writeUInt32LE(STORY_FILE_FORMAT_VERSION, 8);
  buf.writeUInt32LE(Number(stories.year), 12);
  buf.writeUInt32LE(n, 16);
  buf.writeUInt32LE(stories.base, 20);
  buf.writeUInt32LE(releaseDocs, 24);
  Buffer.from(stories.exact.buffer, stories.exact.byteOffset, 4 * n).copy(buf, HEADER_BYTES);
  Buffer.from(stories.near.buffer, stories.near.byteOffset, 4 * n).copy(buf, HEADER_BYTES + 4 * n);
  await writeFile(path, buf);
}

/** Reads and checks one year's story file against what the manifest says of it. */
export async function readStoryFile(path: string, expected: { year: string; docCount: number }): Promise<StoryFile> {
  const bad = (what: string): StoryFileError => new StoryFileError('file_corrupt', `${path}: ${what}`);
  const file = await open(path, 'r');
  let ids: Uint32Array;
  let year: string;
  let base: number;
  let releaseDocs: number;
  let n: number;
  try {
    const size = (await file.stat()).size;
    if (size < HEADER_BYTES) throw bad('not a story file');
    const buf = Buffer.alloc(HEADER_BYTES);
    await readFully(file, buf, 0, bad);
    if (buf.toString('latin1', 0, 8) !== MAGIC) throw bad('not a story file');
    const version = buf.readUInt32LE(8);
    if (version !== STORY_FILE_FORMAT_VERSION) {
      throw new StoryFileError(
        'format_unsupported',
        `${path} has story format ${version}, this build reads ${STORY_FILE_FORMAT_VERSION}`,
      );
    }
    year = String(buf.readUInt32LE(12));
    n = buf.readUInt32LE(16);
    base = buf.readUInt32LE(20);
    releaseDocs = buf.readUInt32LE(24);
    if (year !== expected.year || n !== expected.docCount)
      throw bad(`holds year ${year} with ${n} articles, the manifest says ${expected.year} with ${expected.docCount}`);
    if (size !== HEADER_BYTES + 8 * n) throw bad(`has ${size} bytes, ${HEADER_BYTES + 8 * n} expected`);
    // Read straight into the (aligned) arrays: no second copy of the file waits for the GC in a serving worker.
    ids = new Uint32Array(2 * n);
    await readFully(file, Buffer.from(ids.buffer), HEADER_BYTES, bad);
  } finally {
    await file.close();
  }
  const exact = ids.subarray(0, n);
  const near = ids.subarray(n);
  for (let i = 0; i < n; i++) {
    // A story starts at its first article, so no id lies after its own article.
    if ((exact[i] as number) > base + i || (near[i] as number) > (exact[i] as number))
      throw bad(`article ${i} names story ${exact[i]}/${near[i]}, not an earlier article`);
  }
  return { year, base, releaseDocs, exact, near };
}

/** Fills `into` from the file at `position`; a file that ends first is corrupt. */
async function readFully(
  file: FileHandle,
  into: Buffer,
  position: number,
  bad: (what: string) => StoryFileError,
): Promise<void> {
  for (let got = 0; got < into.length;) {
    const { bytesRead } = await file.read(into, got, into.length - got, position + got);
    if (bytesRead === 0) throw bad(`ended at byte ${position + got} while being read (changed on disk?)`);
    got += bytesRead;
  }
}
