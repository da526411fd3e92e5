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
export function bruteContinuations(text: string, query: string, o: BruteNgramsOptions, into: Map<string, number>): { inside: number; short: number } {
  const wordCase = o.wordCase ?? 'sensitive';
  const hay = wordCase === 'insensitive' ? foldWord(text) : text;
  const needle = wordCase === 'insensitive' ? foldWord(query) : query;
  const qWords = [...wordsOf(needle)];
  let inside = 0;
  let short = 0;
  const add = (ws: string[]): void => { const k = ws.join('\u0000'); into.set(k, (into.get(k) ?? 0) + 1); };
  for (const at of offsets(hay, needle)) {
    if (o.direction === 'right') {
      const last = qWords.at(-1);
      const edge = last !== undefined && last.end === needle.length ? last : undefined;
      const from = edge === undefined ? at + needle.length : at + edge.start;
      const want = edge === undefined || o.complete === true ? o.words : o.words + 1;
      const ws: { word: string; start: number; end: number }[] = [];
      for (const w of wordsOf(hay.slice(from), wordCase)) { ws.push(w); if (ws.length === want) break; }
      if (edge !== undefined) {
        const len = edge.end - edge.start;
        const first = ws[0];
        if (first === undefined || first.start !== 0 || first.end < len || (o.complete !== true && first.end !== len)) { inside++; continue; }
      }
      if (ws.length < want) { short++; continue; }
      add(ws.slice(want - o.words).map((w) => w.word));
    } else {
      const firstW = qWords[0];
      const edge = firstW !== undefined && firstW.start === 0 ? firstW : undefined;
      const to = edge === undefined ? at : at + edge.end;
      const ws = [...wordsOf(hay.slice(0, to), wordCase)];
      if (edge !== undefined) {
        const lastW = ws.at(-1);
        if (lastW === undefined || lastW.end !== to || lastW.start !== at) { inside++; continue; }
        ws.pop();
      }
      if (ws.length < o.words) { short++; continue; }
      add(ws.slice(ws.length - o.words).map((w) => w.word));
    }
  }
  return { inside, short };
}
