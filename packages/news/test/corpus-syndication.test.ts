import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import {
  defaultSyntheticCorpusOptions,
  plantCopies,
  syntheticArticles,
  writeSyndicatedCorpus,
  type SyntheticArticle,
} from '../src/corpus/index.ts';
import { wordList } from '../src/words/index.ts';
import { tempDir } from './support/fixtures.ts';

const tmp = tempDir('corpus-syndication-');
afterAll(() => tmp.cleanup());
const options = { ...defaultSyntheticCorpusOptions, textBytes: 300_000 };

describe('planted syndicated copies', () => {
  it('keeps the originals of the seed and follows some with copies on other sites', () => {
    const planted = [
      ...plantCopies(syntheticArticles(options), { share: 0.3, editShare: 0.1, maxCopies: 3 }, options.seed),
    ];
    const originals = planted.filter((p) => p.copyOf === null).map((p) => p.article);
    expect(originals).toEqual([...syntheticArticles(options)]);
    const copies = planted.filter((p) => p.copyOf !== null);
    expect(copies.length).toBeGreaterThan(originals.length * 0.3);
    const byId = new Map(originals.map((a) => [a.warc_record_id, a]));
    for (const c of copies) {
      const original = byId.get(c.copyOf as string) as SyntheticArticle;
      expect(c.article.hostname).not.toBe(original.hostname);
      expect(c.article.warc_date > original.warc_date).toBe(true);
      const before = wordList(original.text);
      expect(c.editedWords).toBe(Math.round(0.1 * before.length));
      if (original.language === 'ja') continue; // a replaced kana/kanji run may segment differently beside its neighbours
      const after = wordList(c.article.text);
      expect(after).toHaveLength(before.length);
      expect(after.filter((w, i) => w !== before[i])).toHaveLength(c.editedWords);
    }
  });

  it('plants exact copies when no word is edited, each within the month of a one-month corpus', () => {
    const month = { ...options, firstYear: 2024, month: 3 };
    const planted = [
      ...plantCopies(syntheticArticles(month), { share: 0.5, editShare: 0, maxCopies: 2 }, month.seed, true),
    ];
    const texts = new Map(
      planted.filter((p) => p.copyOf === null).map((p) => [p.article.warc_record_id, p.article.text]),
    );
    const copies = planted.filter((p) => p.copyOf !== null);
    expect(copies.length).toBeGreaterThan(0);
    for (const c of copies) {
      expect(c.article.text).toBe(texts.get(c.copyOf as string));
      expect(c.article.warc_date.slice(0, 7)).toBe('2024-03');
    }
  });

  it('writes the corpus and a truth file naming every copy and its original', async () => {
    const out = join(tmp.dir, 'c.jsonl.gz');
    const truth = join(tmp.dir, 'c.copies.jsonl');
    const result = await writeSyndicatedCorpus(out, truth, options, { share: 0.2, editShare: 0.05, maxCopies: 3 });
    const rows = gunzipSync(readFileSync(out))
      .toString('utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as SyntheticArticle);
    const lines = readFileSync(truth, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { copy: string; of: string; edited_words: number });
    expect(rows).toHaveLength(result.articles);
    expect(lines).toHaveLength(result.copies);
    const ids = new Set(rows.map((r) => r.warc_record_id));
    expect(ids.size).toBe(rows.length);
    for (const l of lines) expect(ids.has(l.copy) && ids.has(l.of)).toBe(true);
  });
});
