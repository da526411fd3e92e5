import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSyntheticCorpusOptions, writeSyndicatedCorpus } from '../src/corpus/index.ts';
import {
  buildRelease,
  METADATA_MANIFEST_FILE,
  openRelease,
  type MetadataManifest,
  type OpenRelease,
  type ReleaseIndex,
} from '../src/release/index.ts';
import type { StoryTable } from '../src/stories/index.ts';
import { corpusFiles, readJsonlGz } from './support/corpora.ts';
import { tempDir } from './support/fixtures.ts';
import { sharedRelease } from './support/shared-release.ts';
import { bruteExactStories, releaseOrder, storiesByPeriod } from './support/story-brute.ts';
import { estimate, timeline } from '../src/search-v2/index.ts';

const tmp = tempDir('release-stories-');
let real: OpenRelease;
let realDir: string;
afterAll(() => {
  real?.close();
  tmp.cleanup();
});

const storiesOf = (index: ReleaseIndex): StoryTable => {
  if (!index.stories) throw new Error('the release has no stories');
  return index.stories;
};

describe('story clustering on the real corpora', () => {
  beforeAll(async () => {
    realDir = (await sharedRelease({ inputs: corpusFiles() })).dir;
    real = await openRelease(realDir, { mode: 'disk' });
  }, 180_000);

  it('puts exactly the articles of equal text in one exact story, as grouping the texts by brute force does', () => {
    const table = storiesOf(real.indexes.get('news') as ReleaseIndex);
    const records = corpusFiles().flatMap((f) => readJsonlGz(f) as { text: string; warc_date: string }[]);
    const firstOfText = new Map<string, number>();
    const sizeOfText = new Map<string, number>();
    let duplicates = 0;
    releaseOrder(records).forEach(({ record, year, docIx }, n) => {
      if (firstOfText.has(record.text)) duplicates++;
      else firstOfText.set(record.text, n);
      sizeOfText.set(record.text, (sizeOfText.get(record.text) ?? 0) + 1);
      expect(table.storyOf(year, docIx, 'exact')).toBe(firstOfText.get(record.text));
    });
    releaseOrder(records).forEach(({ record, year, docIx }) => {
      expect(table.sizeOf(table.storyOf(year, docIx, 'exact') as number, 'exact')).toBe(sizeOfText.get(record.text));
    });
    // The corpora's own duplicates (issue 28): 269 articles repeat an earlier text (264 texts occur more than once).
    expect(duplicates).toBe(269);
    expect([...sizeOfText.values()].filter((s) => s > 1)).toHaveLength(264);
  });

  it('dedupe: timeline and estimate count the stories of grouping equal texts, per period of the first matching article', async () => {
    const records = releaseOrder(
      corpusFiles().flatMap((f) => readJsonlGz(f) as { text: string; warc_date: string }[]),
    ).map(({ record, year }) => ({ year, text: Buffer.from(record.text), meta: { warc_date: record.warc_date } }));
    let merged = 0;
    for (const query of ['oil', 'said', 'Tokyo', 'の']) {
      const truth = bruteExactStories(records, query, null, null);
      const t = await timeline(real, { index: 'news', query, dedupe: 'exact' });
      expect(t.total_stories).toBe(truth.total);
      expect(storiesByPeriod(t.periods)).toEqual(truth.perPeriod);
      const e = await estimate(real, { index: 'news', query, dedupe: 'exact', year_min: 1987, year_max: 1987 });
      const truth1987 = bruteExactStories(records, query, 1987, 1987);
      // Past 20,000 occurrences ('said'): estimated from the sample, its 95% interval holding the truth at seed 1.
      const stories = (e as { matching_stories: { value: number; low: number; high: number } }).matching_stories;
      if ((e as { mode: string }).mode === 'exact') expect(stories.value).toBe(truth1987.total);
      else {
        expect(stories.low).toBeLessThanOrEqual(truth1987.total);
        expect(stories.high).toBeGreaterThanOrEqual(truth1987.total);
      }
      merged += records.filter((r) => r.text.includes(query)).length - truth.total;
    }
    // The queries do meet repeated texts.
    expect(merged).toBeGreaterThan(0);
  }, 120_000);

  it('writes 8 bytes per article and lists the files with the clustering parameters in the metadata manifest', () => {
    const manifest = JSON.parse(readFileSync(join(realDir, METADATA_MANIFEST_FILE), 'utf8')) as MetadataManifest;
    const stories = manifest.indexes[0]?.stories;
    expect(stories).toMatchObject({
      format_version: 1,
      shingle_words: 5,
      signature_slots: 64,
      bands: 32,
      rows: 2,
      threshold: 0.2,
    });
    const docs = stories?.years.reduce((n, y) => n + y.doc_count, 0) ?? 0;
    expect(docs).toBe(stories?.documents);
    expect(stories?.years.reduce((n, y) => n + y.bytes, 0)).toBe(docs * 8 + 32 * (stories?.years.length ?? 0));
  });
});

describe('story clustering on planted syndicated copies', () => {
  it('finds the copies with 10% of words edited, across months and years, at precision ≥ 0.95 and recall ≥ 0.9', async () => {
    const corpus = join(tmp.dir, 'planted.jsonl.gz');
    const truthFile = join(tmp.dir, 'planted.copies.jsonl');
    await writeSyndicatedCorpus(
      corpus,
      truthFile,
      { ...defaultSyntheticCorpusOptions, textBytes: 1_500_000 },
      { share: 0.2, editShare: 0.1, maxCopies: 3 },
    );
    await buildRelease({ inputs: [corpus], out: join(tmp.dir, 'planted'), indexVersion: 'stories-planted-1' });
    const release = await openRelease(join(tmp.dir, 'planted'), { mode: 'disk' });
    try {
      const index = release.indexes.get('news') as ReleaseIndex;
      const table = storiesOf(index);
      const originalOf = new Map(
        readFileSync(truthFile, 'utf8')
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as { copy: string; of: string })
          .map((t) => [t.copy, t.of]),
      );
      const truth: string[] = [];
      const found: number[] = [];
      for (const year of [...new Set(index.shards.map((s) => s.year))]) {
        const store = index.metadata(year);
        for (let docIx = 0; ; docIx++) {
          const meta = store?.get(docIx);
          if (!meta) break;
          truth.push(originalOf.get(meta.warc_record_id as string) ?? (meta.warc_record_id as string));
          found.push(table.storyOf(year, docIx, 'near') as number);
        }
      }
      const pairs = (key: (i: number) => string): number => {
        const m = new Map<string, number>();
        for (let i = 0; i < truth.length; i++) m.set(key(i), (m.get(key(i)) ?? 0) + 1);
        return [...m.values()].reduce((n, c) => n + (c * (c - 1)) / 2, 0);
      };
      const both = pairs((i) => `${truth[i]}|${found[i]}`);
      expect(originalOf.size).toBeGreaterThan(100);
      expect(both / pairs((i) => String(found[i]))).toBeGreaterThanOrEqual(0.95);
      expect(both / pairs((i) => truth[i] as string)).toBeGreaterThanOrEqual(0.9);
    } finally {
      release.close();
    }
  }, 120_000);

  it('builds without stories when asked, and that release opens without a story table', async () => {
    const corpus = join(tmp.dir, 'plain.jsonl.gz');
    await writeSyndicatedCorpus(
      corpus,
      join(tmp.dir, 'plain.copies.jsonl'),
      { ...defaultSyntheticCorpusOptions, textBytes: 100_000 },
      { share: 0.2, editShare: 0, maxCopies: 2 },
    );
    await buildRelease({
      inputs: [corpus],
      out: join(tmp.dir, 'plain'),
      indexVersion: 'stories-none-1',
      stories: false,
    });
    const release = await openRelease(join(tmp.dir, 'plain'), { mode: 'disk' });
    expect(release.indexes.get('news')?.stories).toBeUndefined();
    release.close();
  }, 60_000);
});
