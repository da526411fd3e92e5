import type { OpenRelease } from '../release/types.ts';
import { WorkBudget } from '../work-budget/index.ts';
import { V2Error } from './errors.ts';
import { shardsInYears } from './find.ts';
import {
  articlesWithMatch,
  defaultShareOptions,
  type ArticlesWithMatch,
  type ShareOptions,
} from './frequencies/article-share.ts';
import { sumIntervals } from './query/sample.ts';
import { RequestMatcher } from './matching.ts';
import { positionIn } from './shard-order.ts';
import type { CombineContext } from './calls/define.ts';
import { lookupIndex } from './release-lookup.ts';
import { mergeTimelineStories, storiesOf, timelineStories, type TimelineStories } from './stories/index.ts';
import { sampledTimeline } from './timeline-sampled.ts';
import { STORY_TIMELINE_OCCURRENCES } from './stories/timeline-stories.ts';
import type { TimelinePeriod, TimelineRequest, TimelineResult } from './types.ts';

import { crawlPeriodOf } from './crawl-period.ts';

export { crawlPeriodOf };

/**
 * v2 timeline: per crawl period of the selected years, the query's occurrences, the articles in the period and
 * their text bytes (separators excluded), so a client can plot occurrences per million bytes or per 1,000
 * articles instead of raw counts that mostly show how big each crawl month is. Periods without a match are
 * listed too (a zero is data). Parts of one period are summed. The articles holding a match (the share of
 * articles) are counted only when the request asks (`share`): they cost several times the counts. With `dedupe`,
 * the stories too: exact up to `storyBound` candidate occurrences, else estimated (timeline-sampled.ts).
 *
 * @example (await timeline(release, { index: 'news', query: 'oil prices' })).periods[0] // { period: '1987-03', occurrences: 12, … }
 */
export async function timeline(
  release: OpenRelease,
  request: TimelineRequest,
  work: WorkBudget = WorkBudget.unlimited(),
  shareOptions: ShareOptions = defaultShareOptions,
  storyBound: number = STORY_TIMELINE_OCCURRENCES,
): Promise<TimelineResult> {
  if (request.query.length === 0) throw new V2Error('invalid_query', 'timeline needs a non-empty query');
  const matcher = new RequestMatcher(request.query, request, work);
  const shards = shardsInYears(release, request);
  const stories = storiesOf(lookupIndex(release, request.index), request.dedupe);
  if (stories !== undefined) {
    // Past the bound the stories are estimated from a sample (null: within it, counted exactly below).
    const sampled = await sampledTimeline(
      release,
      request,
      work,
      (r) => timeline(release, r, work, shareOptions),
      storyBound,
    );
    if (sampled !== null) return sampled;
  }
  const parts: TimelineResult[] = [];
  for (const shard of shards) {
    const { docCount, textBytes } = shard.reader.stats;
    const n = await matcher.count(shard);
    parts.push({
      index_version: release.indexVersion,
      query: request.query,
      total_occurrences: n,
      periods: [
        {
          period: crawlPeriodOf(shard.shardId),
          year: shard.year,
          occurrences: n,
          articles: docCount,
          text_bytes: textBytes - docCount,
          shard_ids: [shard.shardId],
          ...perWords(n, shard.wordCounts?.tokens ?? null),
          ...(request.share === true
            ? share(await articlesWithMatch(shard, matcher, shareOptions, work), docCount)
            : {}),
        },
      ],
    });
  }
  // With no shard selected there is no part to take the query from.
  const whole = {
    ...combineTimeline(parts, { order: shards.map((s) => s.shardId), indexVersion: release.indexVersion }),
    query: request.query,
  };
  return stories === undefined
    ? whole
    : withStories(whole, await timelineStories(stories, shards, matcher, request, work));
}

/** The answer with each period's `stories` (and the ids a gateway needs to merge them, where there are any). */
function withStories(result: TimelineResult, counted: TimelineStories): TimelineResult {
  const periods = result.periods.map((t) => {
    const ids = counted.spanning.get(t.period);
    const stories = counted.perPeriod.get(t.period) ?? 0;
    return {
      ...t,
      stories,
      stories_interval: { low: stories, high: stories },
      ...(ids === undefined ? {} : { spanning_stories: ids }),
    };
  });
  return { ...result, ...exactStories(periods.reduce((n, t) => n + t.stories, 0)), periods };
}

/** The answer's story fields when every story was counted. */
const exactStories = (total: number) => ({
  total_stories: total,
  total_stories_interval: { low: total, high: total },
  stories_exact: true,
});

/** A period's words and its rate per million words; both null when a shard of it has no word-count table. */
function perWords(
  occurrences: number,
  words: number | null,
): { words: number | null; per_million_words: number | null } {
  return { words, per_million_words: words === null ? null : words === 0 ? 0 : (occurrences * 1e6) / words };
}

/** Articles with a match over the period's articles, exact or estimated with its interval; null (older workers) stays null. */
function share(
  withMatch: ArticlesWithMatch | null,
  articles: number,
): Pick<
  TimelinePeriod,
  | 'articles_with_match'
  | 'share_of_articles'
  | 'articles_with_match_interval'
  | 'share_of_articles_interval'
  | 'share_exact'
> {
  if (withMatch === null)
    return {
      articles_with_match: null,
      share_of_articles: null,
      articles_with_match_interval: null,
      share_of_articles_interval: null,
      share_exact: false,
    };
  const rate = (n: number) => (articles === 0 ? 0 : n / articles);
  return {
    articles_with_match: withMatch.value,
    share_of_articles: rate(withMatch.value),
    articles_with_match_interval: { low: withMatch.low, high: withMatch.high },
    share_of_articles_interval: { low: rate(withMatch.low), high: rate(withMatch.high) },
    share_exact: withMatch.exact,
  };
}

/** A period's articles with a match as answered (an answer without an interval was exact, or null). */
function withMatchOf(p: Partial<TimelinePeriod>): ArticlesWithMatch | null {
  const value = p.articles_with_match;
  if (value === undefined || value === null) return null;
  const iv = p.articles_with_match_interval ?? { low: value, high: value };
  return { value, low: iv.low, high: iv.high, exact: p.share_exact ?? true };
}

/** Two parts of a period as one: values summed, intervals combined as independent estimates (variances add). */
function sumWithMatch(a: ArticlesWithMatch | null, b: ArticlesWithMatch | null): ArticlesWithMatch | null {
  if (a === null || b === null) return null;
  const value = a.value + b.value;
  if (a.exact && b.exact) return { value, low: value, high: value, exact: true };
  const iv = sumIntervals([a, b]);
  return { value, low: Math.min(value, iv.low), high: Math.max(value, iv.high), exact: false };
}

/** timeline's answers for disjoint shard sets as one answer: a period's parts summed, periods in release order. */
export function combineTimeline(parts: readonly TimelineResult[], ctx: CombineContext): TimelineResult {
  const pos = positionIn(ctx.order);
  const periods = new Map<
    string,
    {
      period: string;
      year: string;
      occurrences: number;
      articles: number;
      text_bytes: number;
      shard_ids: string[];
      words?: number | null;
      per_million_words?: number | null;
    } & Partial<ReturnType<typeof share>> & {
        stories?: number;
        stories_interval?: { low: number; high: number };
        spanning_stories?: readonly number[];
      }
  >();
  for (const p of parts) {
    for (const t of p.periods) {
      const m = periods.get(t.period);
      if (m === undefined) periods.set(t.period, { ...t, shard_ids: [...t.shard_ids] });
      else {
        m.occurrences += t.occurrences;
        m.articles += t.articles;
        m.text_bytes += t.text_bytes;
        m.shard_ids.push(...t.shard_ids);
        // Absent on both (answers of older workers): left absent; absent on one side: unknown, like null.
        if (m.words !== undefined || t.words !== undefined)
          Object.assign(m, perWords(m.occurrences, m.words == null || t.words == null ? null : m.words + t.words));
        if (m.articles_with_match !== undefined || t.articles_with_match !== undefined)
          Object.assign(m, share(sumWithMatch(withMatchOf(m), withMatchOf(t)), m.articles));
      }
    }
  }
  for (const m of periods.values()) m.shard_ids.sort((a, b) => pos(a) - pos(b));
  const ordered = [...periods.values()].sort((a, b) => pos(a.shard_ids[0] ?? '') - pos(b.shard_ids[0] ?? ''));
  const stories = mergeTimelineStories(
    parts,
    ordered.map((m) => m.period),
  );
  if (stories !== undefined) {
    for (const m of ordered) {
      const n = stories.get(m.period) ?? 0;
      m.stories = n;
      m.stories_interval = { low: n, high: n };
      delete m.spanning_stories;
    }
  }
  return {
    index_version: ctx.indexVersion,
    query: parts[0]?.query ?? '',
    total_occurrences: parts.reduce((n, p) => n + p.total_occurrences, 0),
    ...(stories === undefined ? {} : exactStories([...stories.values()].reduce((n, k) => n + k, 0))),
    periods: ordered,
  };
}
