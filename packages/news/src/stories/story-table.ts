import type { StoryFile } from './story-file.ts';

/** How articles are merged into stories: equal texts, or near duplicates too (`none` is no table at all). */
export type StoryMode = 'exact' | 'near';

/**
 * Every article's story across the release, from the per-year story files, with each story's size counted on
 * open (8 bytes per article in memory).
 * @example table.storyOf('2024', 17, 'near') // release number of the story's first article
 */
export class StoryTable {
  private readonly byYear: ReadonlyMap<string, StoryFile>;
  private readonly sizes: Readonly<Record<StoryMode, Uint32Array>>;

  constructor(files: readonly StoryFile[]) {
    this.byYear = new Map(files.map((f) => [f.year, f]));
    const releaseDocs = files[0]?.releaseDocs ?? 0;
    const exact = new Uint32Array(releaseDocs);
    const near = new Uint32Array(releaseDocs);
    for (const f of files) {
      for (const id of f.exact) exact[id] = (exact[id] as number) + 1;
      for (const id of f.near) near[id] = (near[id] as number) + 1;
    }
    this.sizes = { exact, near };
  }

  /** The story of article `docIx` of `year`, or undefined when the year or article is not in the table. */
  storyOf(year: string, docIx: number, mode: StoryMode): number | undefined {
    return this.byYear.get(year)?.[mode][docIx];
  }

  /** How many articles of the release the story holds. */
  sizeOf(story: number, mode: StoryMode): number {
    return this.sizes[mode][story] ?? 0;
  }
}
