import type { ReleaseIndex } from '../../release/types.ts';
import type { StoryMode, StoryTable } from '../../stories/index.ts';
import { V2Error } from '../errors.ts';

/** `dedupe` of a request: count articles (`none`), or stories of equal texts (`exact`) or of near duplicates (`near`). */
export type Dedupe = 'none' | StoryMode;

/** The release's stories in the mode a request asked for. */
export interface Stories {
  readonly table: StoryTable;
  readonly mode: StoryMode;
}

/** The stories of a request, or undefined for `none`; 422 `stories_unavailable` when the release has no story files. */
export function storiesOf(index: ReleaseIndex, dedupe: Dedupe | null | undefined): Stories | undefined {
  if (dedupe === undefined || dedupe === null || dedupe === 'none') return undefined;
  if (!index.stories) {
    throw new V2Error(
      'stories_unavailable',
      `dedupe ${dedupe} needs the release's story files, which this release does not have: rebuild with stories (news build without --no-stories)`,
      { dedupe },
    );
  }
  return { table: index.stories, mode: dedupe };
}
