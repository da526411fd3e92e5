/**
 * The in-memory release of the sampled-stories tests (estimate and timeline past the exact bound): 240 articles
 * over four months of two years; three in four hold "ab" 1–7 times, hosts alternate; stories set per test.
 */
import type { OpenRelease, ReleaseIndex, ShardHandle } from '../release/types.ts';
import { StoryTable } from '../stories/index.ts';
import { buildMemoryRelease, type FixtureArticle } from './memory-release.fixture.ts';

export const SHARDS = ['2020-01', '2020-02', '2021-01', '2021-02'];
const ARTICLES: FixtureArticle[] = Array.from({ length: 240 }, (_, i) => ({
  shard: SHARDS[Math.floor(i / 60)] as string,
  text: i % 4 === 3 ? `cd x${i}` : `${'ab '.repeat(1 + ((i * 5) % 7))}x${i}`,
  meta: { hostname: i % 2 === 0 ? 'even.example' : 'odd.example' },
}));
/** Whether article n (release order) holds "ab". */
export const hasAb = (n: number) => n % 4 !== 3;

/** The release without story files. */
export const buildPlainRelease = (): Promise<OpenRelease> =>
  buildMemoryRelease(ARTICLES, { indexVersion: 'stories-v1' });

/** `plain` with story files: article n (release order = ARTICLES order) belongs to story `story[n]`. */
export function withStories(plain: OpenRelease, story: Uint32Array): OpenRelease {
  const index = plain.indexes.get('news') as ReleaseIndex;
  const files = ['2020', '2021'].map((year, y) => ({
    year,
    base: y * 120,
    releaseDocs: 240,
    exact: story.slice(y * 120, y * 120 + 120),
    near: story.slice(y * 120, y * 120 + 120),
  }));
  return { ...plain, indexes: new Map([['news', { ...index, stories: new StoryTable(files) }]]) };
}

/** The same release as a worker serving only `shardIds` sees it. */
export function servedBy(release: OpenRelease, shardIds: readonly string[]): OpenRelease {
  const index = release.indexes.get('news') as ReleaseIndex;
  const shards = index.shards.filter((s: ShardHandle) => shardIds.includes(s.shardId));
  return { ...release, indexes: new Map([['news', { ...index, shards }]]) };
}

/** Random stories: each article joins an earlier one's story or starts its own. */
export const randomStories = (joins: readonly number[]) => {
  const story = new Uint32Array(240);
  for (let i = 0; i < 240; i++) {
    const j = (joins[i] ?? 0) % (i + 1);
    story[i] = j === i ? i : (story[j] as number);
  }
  return story;
};
