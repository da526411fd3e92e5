import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { createGzip, constants as zlibConstants } from 'node:zlib';

/**
 * A synthetic news corpus: Zipf-distributed made-up words in three scripts (ASCII English-like, German-like with
 * umlauts and ß, Japanese kana and kanji), spread over several crawl years and months. Every article is labelled
 * synthetic (hostnames `*.synthetic.example`, `SYNTHETIC` in title and sitename), and everything is derived from
 * the seed, so the repository holds no third-party text and a seed always yields the same bytes.
 */
export interface SyntheticCorpusOptions {
  readonly seed: number;
  /** Stop once this many article text bytes (UTF-8) were produced. */
  readonly textBytes: number;
  readonly firstYear: number;
  readonly years: number;
  /** Put every article in this crawl month (1–12) of `firstYear`: one large period, as a real crawl month is. */
  readonly month?: number | undefined;
}

export const defaultSyntheticCorpusOptions: SyntheticCorpusOptions = {
  seed: 1,
  textBytes: 10_000_000,
  firstYear: 2019,
  years: 6,
};

export interface SyntheticArticle {
  readonly text: string;
  readonly url: string;
  readonly title: string;
  readonly author: string | null;
  readonly sitename: string;
  readonly hostname: string;
  readonly language: 'en' | 'de' | 'ja';
  readonly publish_date: string | null;
  readonly warc_date: string;
  readonly country_tld: null;
  readonly iptc_topic: string;
  readonly warc_record_id: string;
}

type Lang = SyntheticArticle['language'];
const TOPICS = ['politics', 'economy', 'sport', 'culture', 'science', 'technology', 'health', 'weather'];
const VOCAB_SIZE = 20_000;
const ZIPF_EXPONENT = 1.07;

/** mulberry32: small, fast, good enough for test data, and the same on every platform. */
export function createRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Samples ranks 0..n-1 with P(r) ∝ 1/(r+1)^s via a quantile table (O(1) per draw). */
function createZipf(n: number, s: number, random: () => number): () => number {
  const cumulative = new Float64Array(n);
  let sum = 0;
  for (let r = 0; r < n; r++) cumulative[r] = sum += 1 / (r + 1) ** s;
  const table = new Uint32Array(1 << 16);
  let r = 0;
  for (let i = 0; i < table.length; i++) {
    const q = ((i + 0.5) / table.length) * sum;
    while (r < n - 1 && (cumulative[r] as number) < q) r++;
    table[i] = r;
  }
  return () => table[(random() * table.length) | 0] as number;
}

const pick = <T>(items: readonly T[], random: () => number): T => items[Math.floor(random() * items.length)] as T;

function makeVocabulary(lang: Lang, random: () => number): string[] {
  const en = {
    c: ['b', 'c', 'd', 'f', 'g', 'h', 'k', 'l', 'm', 'n', 'p', 'r', 's', 't', 'v', 'w', 'st', 'tr', 'ch', 'th'],
    v: ['a', 'e', 'i', 'o', 'u', 'ea', 'ou'],
  };
  const de = {
    c: ['b', 'd', 'f', 'g', 'h', 'k', 'l', 'm', 'n', 'r', 's', 't', 'w', 'z', 'sch', 'ch', 'st', 'pf', 'ß'],
    v: ['a', 'e', 'i', 'o', 'u', 'ä', 'ö', 'ü', 'ei', 'au', 'ie'],
  };
  const words = new Set<string>();
  while (words.size < VOCAB_SIZE) {
    let w = '';
    if (lang === 'ja') {
      const len = 1 + Math.floor(random() * 4);
      for (let i = 0; i < len; i++) {
        const script = random();
        const cp =
          script < 0.45
            ? 0x3041 + Math.floor(random() * 83)
            : script < 0.7
              ? 0x30a1 + Math.floor(random() * 89)
              : 0x4e00 + Math.floor(random() * 2500);
        w += String.fromCodePoint(cp);
      }
    } else {
      const set = lang === 'en' ? en : de;
      const syllables = 1 + Math.floor(random() * 3.2);
      for (let i = 0; i < syllables; i++) w += pick(set.c, random) + pick(set.v, random);
      if (random() < 0.4) w += pick(set.c, random);
      if (lang === 'de' && random() < 0.3) w = w[0]!.toUpperCase() + w.slice(1);
    }
    words.add(w);
  }
  return [...words];
}

/**
 * Yields synthetic articles until `textBytes` of text were produced.
 * @example for (const a of syntheticArticles({ ...defaultSyntheticCorpusOptions, textBytes: 1e6 })) console.log(a.title)
 */
export function* syntheticArticles(options: SyntheticCorpusOptions): Generator<SyntheticArticle> {
  const random = createRandom(options.seed);
  const langs: Lang[] = ['en', 'de', 'ja'];
  const vocab = Object.fromEntries(langs.map((l) => [l, makeVocabulary(l, random)])) as Record<Lang, string[]>;
  const zipf = createZipf(VOCAB_SIZE, ZIPF_EXPONENT, random);
  const hostRank = createZipf(200, 1.2, random);
  let produced = 0;
  for (let n = 0; produced < options.textBytes; n++) {
    const u = random();
    const lang: Lang = u < 0.45 ? 'en' : u < 0.8 ? 'de' : 'ja';
    const words = vocab[lang];
    const sentence = (count: number): string => {
      const parts: string[] = [];
      for (let i = 0; i < count; i++) parts.push(words[zipf()] as string);
      if (lang === 'ja') return parts.join('') + (random() < 0.2 ? '、' : '') + '。';
      const s = parts.join(' ');
      return s[0]!.toUpperCase() + s.slice(1) + (random() < 0.1 ? '?' : '.');
    };
    const sentences: string[] = [];
    const wordsWanted = 40 + Math.floor(random() ** 2 * 900);
    for (let w = 0; w < wordsWanted;) {
      const len = 6 + Math.floor(random() * 14);
      sentences.push(sentence(len));
      w += len;
      if (random() < 0.08) sentences.push('\n\n');
    }
    const text = lang === 'ja' ? sentences.join('') : sentences.join(' ').replaceAll(' \n\n ', '\n\n');
    produced += Buffer.byteLength(text, 'utf8');

    // Drawn even when a month is fixed, so the rest of the article stays the same for a seed.
    const drawnYear = options.firstYear + Math.floor(random() * options.years);
    const drawnMonth = 1 + Math.floor(random() * 12);
    const year = options.month === undefined ? drawnYear : options.firstYear;
    const month = options.month ?? drawnMonth;
    const day = 1 + Math.floor(random() * 28);
    const two = (v: number): string => String(v).padStart(2, '0');
    const time = `${two(Math.floor(random() * 24))}:${two(Math.floor(random() * 60))}:${two(Math.floor(random() * 60))}`;
    const warcDate = `${year}-${two(month)}-${two(day)}T${time}`;
    const site = hostRank();
    const hostname = `${lang}-news-${site}.synthetic.example`;
    const id = Array.from({ length: 4 }, () =>
      Math.floor(random() * 2 ** 32)
        .toString(16)
        .padStart(8, '0'),
    ).join('');
    yield {
      text,
      url: `https://${hostname}/${year}/${two(month)}/article-${n}`,
      title: `SYNTHETIC: ${sentence(3 + Math.floor(random() * 6)).replace(/[.?。]$/, '')}`,
      author: random() < 0.7 ? `Synthetic Author ${Math.floor(random() * 500)}` : null,
      sitename: `Synthetic ${lang.toUpperCase()} News ${site} (SYNTHETIC)`,
      hostname,
      language: lang,
      publish_date:
        random() < 0.8 ? `${year}-${two(month)}-${two(day)}T${two(Math.floor(random() * 24))}:00:00Z` : null,
      warc_date: warcDate,
      country_tld: null,
      iptc_topic: pick(TOPICS, random),
      warc_record_id: `<urn:uuid:${id.slice(0, 8)}-${id.slice(8, 12)}-4${id.slice(13, 16)}-8${id.slice(17, 20)}-${id.slice(20, 32)}>`,
    };
  }
}

/** Writes a synthetic corpus as gzipped JSONL. Returns the article count and text bytes. */
export function writeSyntheticCorpus(
  path: string,
  options: SyntheticCorpusOptions,
): Promise<{ articles: number; textBytes: number }> {
  return writeArticlesJsonlGz(path, syntheticArticles(options));
}

/** Writes articles as gzipped JSONL, one object per line. Returns the article count and text bytes. */
export async function writeArticlesJsonlGz(
  path: string,
  source: Iterable<SyntheticArticle>,
): Promise<{ articles: number; textBytes: number }> {
  const file = createWriteStream(path);
  // Level 1: the corpus is test data; fast compression keeps a 1 GB corpus quick to generate and read.
  const gzip = createGzip({ level: 1, chunkSize: 1 << 20, strategy: zlibConstants.Z_DEFAULT_STRATEGY });
  gzip.pipe(file);
  let articles = 0;
  let textBytes = 0;
  let pending: string[] = [];
  let pendingBytes = 0;
  for (const a of source) {
    articles++;
    textBytes += Buffer.byteLength(a.text, 'utf8');
    const line = JSON.stringify(a) + '\n';
    pending.push(line);
    pendingBytes += line.length;
    if (pendingBytes >= 1 << 20) {
      if (!gzip.write(pending.join(''))) await once(gzip, 'drain');
      pending = [];
      pendingBytes = 0;
    }
  }
  gzip.end(pending.join(''));
  await once(file, 'close');
  return { articles, textBytes };
}
