import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createTextHasher,
  defaultSyntheticCorpusOptions,
  syntheticArticles,
  validateArticleRecord,
  writeSyntheticCorpus,
} from '../src/corpus/index.ts';
import { tempDir } from './support/fixtures.ts';

const tmp = tempDir('corpus-synthetic-');
afterAll(() => tmp.cleanup());
const options = { ...defaultSyntheticCorpusOptions, textBytes: 400_000 };

describe('the synthetic corpus generator', () => {
  it('writes the same bytes for the same seed and different ones for another seed', async () => {
    const a = join(tmp.dir, 'a.jsonl.gz');
    const b = join(tmp.dir, 'b.jsonl.gz');
    const c = join(tmp.dir, 'c.jsonl.gz');
    await writeSyntheticCorpus(a, options);
    await writeSyntheticCorpus(b, options);
    await writeSyntheticCorpus(c, { ...options, seed: 2 });
    expect(readFileSync(a).equals(readFileSync(b))).toBe(true);
    expect(gunzipSync(readFileSync(a)).equals(gunzipSync(readFileSync(c)))).toBe(false);
  });

  it('labels every article synthetic and produces valid records', async () => {
    const hash = await createTextHasher();
    const articles = [...syntheticArticles(options)];
    for (const a of articles) {
      expect(a.hostname).toMatch(/\.synthetic\.example$/);
      expect(a.title.startsWith('SYNTHETIC: ')).toBe(true);
      expect(a.sitename).toContain('(SYNTHETIC)');
      expect(validateArticleRecord(a, hash).ok).toBe(true);
    }
    expect(articles.reduce((n, a) => n + Buffer.byteLength(a.text), 0)).toBeGreaterThanOrEqual(options.textBytes);
  });

  it('spreads articles over several years and months, in three scripts', () => {
    const articles = [...syntheticArticles(options)];
    expect(new Set(articles.map((a) => a.warc_date.slice(0, 4))).size).toBe(options.years);
    expect(new Set(articles.map((a) => a.warc_date.slice(0, 7))).size).toBeGreaterThan(40);
    const all = articles.map((a) => a.text).join(' ');
    expect(all).toMatch(/[äöüß]/);
    expect(all).toMatch(/[\u3041-\u3096]/);
    expect(all).toMatch(/[\u4e00-\u9fff]/);
    expect(new Set(articles.map((a) => a.language))).toEqual(new Set(['en', 'de', 'ja']));
  });

  it('puts every article in one crawl month when asked, with the same texts as the spread corpus', () => {
    const spread = [...syntheticArticles(options)];
    const single = [...syntheticArticles({ ...options, firstYear: 2024, month: 3 })];
    expect(new Set(single.map((x) => x.warc_date.slice(0, 7)))).toEqual(new Set(['2024-03']));
    expect(single.map((x) => x.text)).toEqual(spread.map((x) => x.text));
  });

  it('draws words with a Zipf-like distribution: few very common, many rare', () => {
    const counts = new Map<string, number>();
    for (const a of syntheticArticles(options)) {
      if (a.language !== 'en') continue;
      for (const w of a.text.toLowerCase().split(/[^a-z]+/)) if (w) counts.set(w, (counts.get(w) ?? 0) + 1);
    }
    const ranked = [...counts.values()].sort((x, y) => y - x);
    expect(ranked[0]).toBeGreaterThan(20 * (ranked[99] ?? 0));
    expect(ranked.filter((c) => c === 1).length).toBeGreaterThan(1000);
  });
});
