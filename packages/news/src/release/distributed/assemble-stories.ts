import { BuildError, ReleaseVerificationError } from '../errors.ts';
import { storiesRelPath } from '../layout.ts';
import type { StoriesEntry } from '../manifest.ts';
import type { LoadedPart } from './check-parts.ts';

/**
 * The assembled release's story entry. Every part build clusters the whole input (it reads all of it anyway), so
 * all parts number the same stories and a year's story file is the same in every part that holds the year; the
 * release takes each year's file from one of them. Parts built without stories give a release without them
 * (dedupe requests then get 422); parts that disagree on the clustering are refused.
 */
export function assembleStories(parts: readonly LoadedPart[]): StoriesEntry | undefined {
  const entries = parts.map((p) => p.metadata.stories);
  if (entries.some((e) => e === undefined)) return undefined;
  const [first] = entries as StoriesEntry[];
  if (!first) return undefined;
  const { years: _years, ...params } = first;
  const years = new Map<string, StoriesEntry['years'][number]>();
  parts.forEach((p, i) => {
    const { years: own, ...theirs } = entries[i] as StoriesEntry;
    if (JSON.stringify(theirs) !== JSON.stringify(params)) {
      throw new BuildError(
        'parts_mismatch',
        `the parts disagree on the story clustering: ${parts[0]?.dir} has ${JSON.stringify(params)}, ${p.dir} has ${JSON.stringify(theirs)}; build every part with the same version of news`,
      );
    }
    for (const y of own) {
      if (y.file !== storiesRelPath(p.metadata.name, y.year)) {
        throw new ReleaseVerificationError(
          'manifest_invalid',
          `part ${p.dir}: its metadata manifest names ${JSON.stringify(y.file)} as the stories of ${y.year}; news build writes ${JSON.stringify(storiesRelPath(p.metadata.name, y.year))}`,
        );
      }
      const before = years.get(y.year);
      if (before && before.sha256 !== y.sha256) {
        throw new BuildError(
          'parts_mismatch',
          `the parts disagree on the stories of ${y.year} (${p.dir} wrote another file); build every part from the same input`,
        );
      }
      years.set(y.year, y);
    }
  });
  return { ...params, years: [...years.values()].sort((a, b) => (a.year < b.year ? -1 : 1)) };
}
