import type { StoryFile } from './story-file.ts';

/** How articles are merged into stories: equal texts, or near duplicates too (`none` is no table at all). */
export type StoryMode = 'exact' | 'near';

/** Release numbers `[from, to)`: a run of articles in (year, doc_ix) order across the release. */
export interface ReleaseSpan {
  readonly from: number;
  readonly to: number;
}

/**
 * Every article's story across the release, from the per-year story files, with each story's size counted on
 * open (8 bytes per article in memory) and, on first use of a mode across workers, its last article (4 more).
 * @example table.storyOf('2024', 17, 'near') // release number of the story's first article
 */
export class StoryTable {
  private readonly byYear: ReadonlyMap<string, StoryFile>;
  private readonly sizes: Readonly<Record<StoryMode, Uint32Array>>;
  private readonly lasts: Partial<Record<StoryMode, Uint32Array>> = {};
  private readonly members: Partial<Record<StoryMode, { starts: Uint32Array; numbers: Uint32Array }>> = {};
  private readonly files: readonly StoryFile[];

  constructor(files: readonly StoryFile[]) {
    this.files = [...files].sort((a, b) => a.base - b.base);
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

  /** The release number of article `docIx` of `year` (its place in (year, doc_ix) order), or undefined. */
  releaseNumber(year: string, docIx: number): number | undefined {
    const f = this.byYear.get(year);
    return f === undefined || docIx >= f.exact.length ? undefined : f.base + docIx;
  }

  /** The release numbers of the years from `min` to `max` (inclusive, null for no bound): one run, years being in order. */
  spanOfYears(min: number | null, max: number | null): ReleaseSpan {
    const inside = this.files.filter(
      (f) => (min === null || Number(f.year) >= min) && (max === null || Number(f.year) <= max),
    );
    const first = inside[0];
    const last = inside[inside.length - 1];
    return first === undefined || last === undefined
      ? { from: 0, to: 0 }
      : { from: first.base, to: last.base + last.exact.length };
  }

  /**
   * The release numbers from the story's first article (its id) to its last: every article of the story lies in
   * `[story, lastOf(story)]`.
   */
  lastOf(story: number, mode: StoryMode): number {
    let last = this.lasts[mode];
    if (last === undefined) {
      last = new Uint32Array(this.sizes[mode].length);
      // Years come in release order, so the last write for a story is its last article.
      for (const f of this.files) f[mode].forEach((id, i) => ((last as Uint32Array)[id] = f.base + i));
      this.lasts[mode] = last;
    }
    return last[story] ?? story;
  }

  /**
   * The release numbers of the story's articles, ascending (empty for a number that is no story's id). Built on first
   * use of a mode, by counting sort over the sizes: 8 more bytes per article (offsets and members).
   */
  membersOf(story: number, mode: StoryMode): Uint32Array {
    let m = this.members[mode];
    if (m === undefined) {
      const sizes = this.sizes[mode];
      const starts = new Uint32Array(sizes.length + 1);
      for (let i = 0; i < sizes.length; i++) starts[i + 1] = (starts[i] as number) + (sizes[i] as number);
      const numbers = new Uint32Array(sizes.length);
      const fill = starts.slice(0, sizes.length);
      // Files in release order, so each story's members come out ascending.
      for (const f of this.files) f[mode].forEach((id, i) => (numbers[(fill[id] as number)++] = f.base + i));
      this.members[mode] = m = { starts, numbers };
    }
    if (story < 0 || story >= m.starts.length - 1) return new Uint32Array(0);
    return m.numbers.subarray(m.starts[story], m.starts[story + 1]);
  }

  /** The year and doc_ix of release number `n`, or undefined past the release's end. */
  articleAt(n: number): { year: string; docIx: number } | undefined {
    let a = 0;
    let b = this.files.length - 1;
    // The last file whose base is at most n.
    while (a < b) {
      const mid = (a + b + 1) >>> 1;
      if ((this.files[mid] as StoryFile).base <= n) a = mid;
      else b = mid - 1;
    }
    const f = this.files[a];
    return f === undefined || n < f.base || n >= f.base + f.exact.length
      ? undefined
      : { year: f.year, docIx: n - f.base };
  }
}
