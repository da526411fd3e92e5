import {
  createTextHasher,
  defaultSyntheticCorpusOptions,
  parseCrawlPeriod,
  plantCopies,
  syntheticArticles,
} from '../corpus/index.ts';
import { StoryCollector } from './story-collector.ts';

/** Pairwise precision and recall of the near stories against the planted truth (original + its copies). */
export interface PlantedQuality {
  readonly articles: number;
  readonly copies: number;
  readonly truePairs: number;
  readonly foundPairs: number;
  readonly precision: number;
  readonly recall: number;
}

/**
 * Plants copies into a synthetic corpus, clusters it as the builder does and scores the near stories.
 * @example (await scorePlantedCopies(2e6, 0.1)).recall // ≥ 0.9
 */
export async function scorePlantedCopies(textBytes: number, editShare: number, seed = 1): Promise<PlantedQuality> {
  const hash = await createTextHasher();
  const options = { ...defaultSyntheticCorpusOptions, textBytes, seed };
  const collector = new StoryCollector();
  const truth: string[] = []; // per arrival: the original's record id
  const keys: string[] = []; // per arrival: year-month-local, to map release numbers back
  const perMonth = new Map<string, number>();
  let copies = 0;
  for (const p of plantCopies(syntheticArticles(options), { share: 0.2, editShare, maxCopies: 3 }, seed)) {
    const crawl = parseCrawlPeriod(p.article.warc_date);
    if (typeof crawl === 'string') throw new Error(crawl);
    const bytes = Buffer.from(p.article.text, 'utf8');
    await collector.add(crawl.year, crawl.month, hash(bytes), bytes);
    const month = `${crawl.year}-${String(crawl.month).padStart(2, '0')}`;
    const local = perMonth.get(month) ?? 0;
    perMonth.set(month, local + 1);
    keys.push(`${month}#${local}`);
    truth.push(p.copyOf ?? p.article.warc_record_id);
    if (p.copyOf !== null) copies++;
  }
  // Release number of each arrival: (year, month, index in month) order, as the collector numbers them.
  const sorted = keys
    .map((k, i) => ({ k, i }))
    .sort(
      (a, b) =>
        (a.k.split('#')[0] as string).localeCompare(b.k.split('#')[0] as string) ||
        Number(a.k.split('#')[1]) - Number(b.k.split('#')[1]),
    );
  const near = new Uint32Array(keys.length);
  let at = 0;
  for (const y of await collector.finish()) for (const id of y.near) near[at++] = id;
  const truthOf = new Array<string>(keys.length);
  sorted.forEach(({ i }, r) => {
    truthOf[r] = truth[i] as string;
  });
  return { articles: keys.length, copies, ...pairScores(truthOf, near) };
}

/** Same-cluster pairs counted per group: Σ C(size, 2) over true groups, found groups and their intersections. */
function pairScores(
  truth: readonly string[],
  found: Uint32Array,
): { truePairs: number; foundPairs: number; precision: number; recall: number } {
  const pairs = (counts: Map<string, number>): number =>
    [...counts.values()].reduce((n, c) => n + (c * (c - 1)) / 2, 0);
  const count = (key: (i: number) => string): Map<string, number> => {
    const m = new Map<string, number>();
    for (let i = 0; i < truth.length; i++) m.set(key(i), (m.get(key(i)) ?? 0) + 1);
    return m;
  };
  const truePairs = pairs(count((i) => truth[i] as string));
  const foundPairs = pairs(count((i) => String(found[i])));
  const both = pairs(count((i) => `${truth[i]}|${found[i]}`));
  return {
    truePairs,
    foundPairs,
    precision: foundPairs === 0 ? 1 : both / foundPairs,
    recall: truePairs === 0 ? 1 : both / truePairs,
  };
}
