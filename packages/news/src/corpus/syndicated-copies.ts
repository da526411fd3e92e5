import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { wordsOf } from '../words/index.ts';
import {
  createRandom,
  syntheticArticles,
  writeArticlesJsonlGz,
  type SyntheticArticle,
  type SyntheticCorpusOptions,
} from './synthetic.ts';

/**
 * Planted syndication (issue 28 item 1): a share of the synthetic articles reappear as copies on other sites and
 * later dates, with a given share of their words replaced, so a story clustering can be scored against the truth.
 */
export interface SyndicationOptions {
  /** Share (0–1) of original articles that get copies. */
  readonly share: number;
  /** Share (0–1) of each copy's words replaced by other words of the same language (0: exact copies). */
  readonly editShare: number;
  /** Copies per syndicated article are drawn from 1..maxCopies. */
  readonly maxCopies: number;
}

export const defaultSyndicationOptions: SyndicationOptions = { share: 0.1, editShare: 0.05, maxCopies: 3 };

/** One article in corpus order; a planted copy names the `warc_record_id` of its original and its edited words. */
export interface PlantedArticle {
  readonly article: SyntheticArticle;
  readonly copyOf: string | null;
  readonly editedWords: number;
}

const WORD_POOL = 5_000;

/**
 * Follows each original with its planted copies. Copies draw from their own random stream (derived from `seed`),
 * so the originals are exactly those of the corpus without copies.
 * @example for (const p of plantCopies(syntheticArticles(o), defaultSyndicationOptions, o.seed)) if (p.copyOf) …
 */
export function* plantCopies(
  articles: Iterable<SyntheticArticle>,
  options: SyndicationOptions,
  seed: number,
  keepMonth = false,
): Generator<PlantedArticle> {
  const random = createRandom((seed ^ 0x5eed_c0de) >>> 0);
  // Replacement words come from earlier articles of the same language, so an edit looks like ordinary text.
  const pools = new Map<string, string[]>();
  let n = 0;
  for (const article of articles) {
    yield { article, copyOf: null, editedWords: 0 };
    // Only syndicated articles are segmented: the segmenter runs at ~3 MB/s, too slow for every article of a big corpus.
    if (random() >= options.share) continue;
    const words = [...wordsOf(article.text)];
    const pool = pools.get(article.language) ?? [];
    pools.set(article.language, pool);
    for (const w of words) {
      if (pool.length < WORD_POOL) pool.push(w.word);
      else if (random() < 0.05) pool[Math.floor(random() * WORD_POOL)] = w.word;
    }
    const copies = 1 + Math.floor(random() * options.maxCopies);
    for (let c = 0; c < copies; c++) {
      const { text, edited } = editWords(article.text, words, options.editShare, pool, random);
      yield {
        article: copyArticle(article, text, n++, keepMonth, random),
        copyOf: article.warc_record_id,
        editedWords: edited,
      };
    }
  }
}

/** Replaces round(share × words) distinct words, each by a different word from the pool. */
function editWords(
  text: string,
  words: readonly { word: string; start: number; end: number }[],
  share: number,
  pool: readonly string[],
  random: () => number,
): { text: string; edited: number } {
  const wanted = Math.round(share * words.length);
  const chosen = new Set<number>();
  while (chosen.size < wanted) chosen.add(Math.floor(random() * words.length));
  let out = '';
  let at = 0;
  for (const i of [...chosen].sort((a, b) => a - b)) {
    const w = words[i] as { word: string; start: number; end: number };
    let replacement = pool[Math.floor(random() * pool.length)] as string;
    for (let tries = 0; replacement === w.word && tries < 10; tries++)
      replacement = pool[Math.floor(random() * pool.length)] as string;
    if (replacement === w.word) replacement = `${w.word}x`;
    out += text.slice(at, w.start) + replacement;
    at = w.end;
  }
  return { text: out + text.slice(at), edited: chosen.size };
}

/**
 * The copy on another synthetic site, 1–40 days later (so copies cross months and years), or on another day of the
 * same month for a one-month corpus; with a new record id.
 */
function copyArticle(
  a: SyntheticArticle,
  text: string,
  n: number,
  keepMonth: boolean,
  random: () => number,
): SyntheticArticle {
  const site = Math.floor(random() * 200);
  const hostname = `${a.language}-copy-${site}.synthetic.example`;
  const later = new Date(Date.parse(`${a.warc_date}Z`) + (1 + Math.floor(random() * 40)) * 86_400_000)
    .toISOString()
    .slice(0, 19);
  const day = String(1 + Math.floor(random() * 28)).padStart(2, '0');
  const warcDate = keepMonth ? `${a.warc_date.slice(0, 8)}${day}${a.warc_date.slice(10)}` : later;
  const hex = Array.from({ length: 4 }, () =>
    Math.floor(random() * 2 ** 32)
      .toString(16)
      .padStart(8, '0'),
  ).join('');
  return {
    ...a,
    text,
    url: `https://${hostname}/${warcDate.slice(0, 4)}/${warcDate.slice(5, 7)}/copy-${n}`,
    hostname,
    sitename: `Synthetic ${a.language.toUpperCase()} Copies ${site} (SYNTHETIC)`,
    publish_date: a.publish_date === null ? null : `${warcDate.slice(0, 10)}T00:00:00Z`,
    warc_date: warcDate,
    warc_record_id: `<urn:uuid:${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}>`,
  };
}

/**
 * Writes a synthetic corpus with planted copies as gzipped JSONL, and the truth as JSONL beside it: one line
 * `{copy, of, edited_words}` per copy (record ids). Returns the counts.
 */
export async function writeSyndicatedCorpus(
  path: string,
  truthPath: string,
  options: SyntheticCorpusOptions,
  syndication: SyndicationOptions,
): Promise<{ articles: number; textBytes: number; copies: number }> {
  const truth = createWriteStream(truthPath);
  let copies = 0;
  function* articles(): Generator<SyntheticArticle> {
    for (const p of plantCopies(syntheticArticles(options), syndication, options.seed, options.month !== undefined)) {
      if (p.copyOf !== null) {
        copies++;
        truth.write(
          JSON.stringify({ copy: p.article.warc_record_id, of: p.copyOf, edited_words: p.editedWords }) + '\n',
        );
      }
      yield p.article;
    }
  }
  const result = await writeArticlesJsonlGz(path, articles());
  truth.end();
  await once(truth, 'close');
  return { ...result, copies };
}
