/**
 * Brute-force references for the word analyses (issue 28): a streaming scan of the corpora's JSONL with the one
 * word segmenter (src/words), knowing nothing of suffix arrays. Each occurrence of the phrase is found with
 * `indexOf` (overlapping, like the index's ranks) and its neighbouring words segmented from the whole article.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { wordsOf, type WordCase, foldWord } from '../../src/words/index.ts';

export interface BruteArticle {
  readonly text: string;
  readonly year: number;
  readonly language: string | null;
}

/** Streams the articles of .jsonl.gz files (records without text are skipped, as the builder does). */
export async function* scanJsonl(files: readonly string[]): AsyncGenerator<BruteArticle> {
  for (const file of files) {
    const lines = createInterface({ input: createReadStream(file).pipe(createGunzip()), crlfDelay: Infinity });
    for await (const line of lines) {
      if (line.trim() === '') continue;
      const r = JSON.parse(line) as { text?: string | null; warc_date?: string | null; language?: string | null };
      if (typeof r.text !== 'string' || r.text === '') continue;
      yield { text: r.text, year: Number((r.warc_date ?? '').slice(0, 4)), language: r.language ?? null };
    }
  }
}

export interface BruteNgramsOptions {
  readonly direction: 'left' | 'right';
  readonly words: number;
  readonly complete?: boolean;
  readonly wordCase?: WordCase;
}

/** Character offsets of every (overlapping) occurrence of `query` in `text`. */
function offsets(text: string, query: string): number[] {
  const out: number[] = [];
  for (let at = text.indexOf(query); at !== -1; at = text.indexOf(query, at + 1)) out.push(at);
  return out;
}

/** Continuations of `query` in one article, keyed by their words joined with NUL; `inside` counts the rest. */
export function bruteContinuations(
  text: string,
  query: string,
  o: BruteNgramsOptions,
  into: Map<string, number>,
): { inside: number; short: number } {
  const wordCase = o.wordCase ?? 'sensitive';
  const hay = wordCase === 'insensitive' ? foldWord(text) : text;
  const needle = wordCase === 'insensitive' ? foldWord(query) : query;
  const qWords = [...wordsOf(needle)];
  let inside = 0;
  let short = 0;
  const add = (ws: string[]): void => {
    const k = ws.join('\u0000');
    into.set(k, (into.get(k) ?? 0) + 1);
  };
  for (const at of offsets(hay, needle)) {
    if (o.direction === 'right') {
      const last = qWords.at(-1);
      const edge = last !== undefined && last.end === needle.length ? last : undefined;
      const from = edge === undefined ? at + needle.length : at + edge.start;
      const want = edge === undefined || o.complete === true ? o.words : o.words + 1;
      const ws: { word: string; start: number; end: number }[] = [];
      for (const w of wordsOf(hay.slice(from), wordCase)) {
        ws.push(w);
        if (ws.length === want) break;
      }
      if (edge !== undefined) {
        const len = edge.end - edge.start;
        const first = ws[0];
        if (first === undefined || first.start !== 0 || first.end < len || (o.complete !== true && first.end !== len)) {
          inside++;
          continue;
        }
      }
      if (ws.length < want) {
        short++;
        continue;
      }
      add(ws.slice(want - o.words).map((w) => w.word));
    } else {
      const firstW = qWords[0];
      const edge = firstW !== undefined && firstW.start === 0 ? firstW : undefined;
      const to = edge === undefined ? at : at + edge.end;
      const ws = [...wordsOf(hay.slice(0, to), wordCase)];
      if (edge !== undefined) {
        const lastW = ws.at(-1);
        if (lastW === undefined || lastW.end !== to || lastW.start !== at) {
          inside++;
          continue;
        }
        ws.pop();
      }
      if (ws.length < o.words) {
        short++;
        continue;
      }
      add(ws.slice(ws.length - o.words).map((w) => w.word));
    }
  }
  return { inside, short };
}

/** The words of each occurrence's window (left `left` words, right `right`), counted into `into` by word. */
export function bruteWindows(
  text: string,
  query: string,
  left: number,
  right: number,
  wordCase: WordCase,
  into: Map<string, number>,
): number {
  // Occurrences found in the folded text; windows segmented from the original text with its words folded, as the
  // engine does (the same offsets while folding keeps the length, which the callers check).
  const folded = wordCase === 'insensitive' ? foldWord(text) : text;
  if (folded.length !== text.length) throw new Error('bruteWindows: case folding changed the text length');
  const hay = text;
  const needle = wordCase === 'insensitive' ? foldWord(query) : query;
  const qWords = [...wordsOf(needle)];
  const firstW = qWords[0]?.start === 0 ? qWords[0] : undefined;
  const lastQ = qWords.at(-1);
  const lastW = lastQ !== undefined && lastQ.end === needle.length ? lastQ : undefined;
  const add = (w: string): void => {
    into.set(w, (into.get(w) ?? 0) + 1);
  };
  const found = offsets(folded, needle);
  for (const at of found) {
    if (left > 0) {
      const ws = [...wordsOf(hay.slice(0, firstW === undefined ? at : at + firstW.end), wordCase)];
      if (firstW !== undefined) ws.pop();
      ws.slice(Math.max(0, ws.length - left)).forEach((w) => add(w.word));
    }
    if (right > 0) {
      const ws: string[] = [];
      const want = lastW === undefined ? right : right + 1;
      for (const w of wordsOf(hay.slice(lastW === undefined ? at + needle.length : at + lastW.start), wordCase)) {
        ws.push(w.word);
        if (ws.length === want) break;
      }
      (lastW === undefined ? ws : ws.slice(1)).forEach(add);
    }
  }
  return found.length;
}

/** What one segment count asks for: the articles it keeps, the words it counts, and how words are cased. */
export interface SegmentCountSpec {
  readonly keep: (a: BruteArticle) => boolean;
  readonly words: ReadonlySet<string>;
  readonly wordCase: WordCase;
}

/**
 * For each spec, how often each of its `words` is a word (segment) of the articles it keeps, and all their words:
 * f_y and n of the collocations. Counted on the texts as given (words folded with `insensitive`). All specs share
 * one pass: each article is segmented once per word case any spec keeping it asks for (segmenting is the cost).
 * The pass takes tens of seconds on a loaded machine, so it lets the event loop turn every 1,000 articles (a Vitest
 * worker blocked for 60 s times out its report to the runner: scripts/vitest-event-loop.ts).
 */
export async function bruteSegmentCounts(
  articles: readonly BruteArticle[],
  specs: readonly SegmentCountSpec[],
): Promise<{ counts: Map<string, number>; total: number }[]> {
  const out = specs.map(() => ({ counts: new Map<string, number>(), total: 0 }));
  for (const [n, a] of articles.entries()) {
    if (n % 1000 === 999) await new Promise((r) => setImmediate(r));
    for (const wordCase of ['sensitive', 'insensitive'] as const) {
      const mine = specs.flatMap((s, i) => (s.wordCase === wordCase && s.keep(a) ? [i] : []));
      if (mine.length === 0) continue;
      for (const w of wordsOf(a.text, wordCase)) {
        for (const i of mine) {
          const o = out[i]!;
          o.total++;
          if (specs[i]!.words.has(w.word)) o.counts.set(w.word, (o.counts.get(w.word) ?? 0) + 1);
        }
      }
    }
  }
  return out;
}
