import type { ShardHandle } from '../../release/types.ts';
import type { ReleaseSpan } from '../../stories/index.ts';
import { crawlPeriodOf } from '../crawl-period.ts';
import type { Stories } from './story-mode.ts';

/**
 * The first matching article of every story among a call's matches (issue 28): a story counts once, in the crawl
 * period of its first matching article in release order (the article search lists for it).
 * @example const f = new StoryFirsts(stories); f.add(shard, doc); f.perPeriod().get('2024-01') // stories
 */
export class StoryFirsts {
  private readonly first = new Map<number, { at: number; period: string }>();

  constructor(private readonly stories: Stories) {}

  /** Adds a matching article (any order): `doc` of `shard`. */
  add(shard: ShardHandle, doc: number): void {
    const docIx = shard.docBase + doc;
    const { table, mode } = this.stories;
    const at = table.releaseNumber(shard.year, docIx) ?? Number.MAX_SAFE_INTEGER;
    // An article missing from the table would mean story files that do not cover it: its own story.
    const story = table.storyOf(shard.year, docIx, mode) ?? -1 - this.first.size;
    const seen = this.first.get(story);
    if (seen === undefined || at < seen.at) this.first.set(story, { at, period: crawlPeriodOf(shard.shardId) });
  }

  /** Distinct stories among the matches. */
  get count(): number {
    return this.first.size;
  }

  /** Stories per crawl period of their first matching article. */
  perPeriod(): Map<string, number> {
    const out = new Map<string, number>();
    for (const { period } of this.first.values()) out.set(period, (out.get(period) ?? 0) + 1);
    return out;
  }

  /**
   * Per period, the stories that may also match in shards of the selection this answer does not cover (the story's
   * first-to-last articles, clipped to `selection`, leave the `covered` runs): ids a gateway needs to count each
   * story once across workers. Empty when the answer covers the whole selection.
   */
  spanning(selection: ReleaseSpan, covered: readonly ReleaseSpan[]): Map<string, number[]> {
    const out = new Map<string, number[]>();
    for (const [story, { period }] of this.first) {
      if (!leavesCovered(this.stories, story, selection, covered)) continue;
      let ids = out.get(period);
      if (ids === undefined) out.set(period, (ids = []));
      ids.push(story);
    }
    for (const ids of out.values()) ids.sort((a, b) => a - b);
    return out;
  }
}

/**
 * Whether `story`'s articles, first to last and clipped to `selection`, leave the `covered` runs: shards of the
 * selection that an answer does not hold may then hold some of them, so a gateway must merge the story across workers.
 */
export function leavesCovered(
  stories: Stories,
  story: number,
  selection: ReleaseSpan,
  covered: readonly ReleaseSpan[],
): boolean {
  const from = Math.max(story, selection.from);
  const to = Math.min(stories.table.lastOf(story, stories.mode) + 1, selection.to);
  return !covered.some((c) => c.from <= from && to <= c.to);
}

/** The release numbers of `shards` (chronological) as runs of consecutive articles. */
export function coveredSpans(stories: Stories, shards: readonly ShardHandle[]): ReleaseSpan[] {
  const runs: { from: number; to: number }[] = [];
  for (const s of shards) {
    const from = stories.table.releaseNumber(s.year, s.docBase);
    if (from === undefined) continue;
    const to = from + s.reader.stats.docCount;
    const last = runs[runs.length - 1];
    if (last !== undefined && last.to === from) last.to = to;
    else runs.push({ from, to });
  }
  return runs;
}
