/**
 * SQLite FTS5 over the real corpora's articles, what `bench:search` compares our article search with: one table per
 * tokenizer, in a file of its own (its size is the index a user would keep), with the statements that give what our
 * answer holds besides the count.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { corpusFiles, readJsonlGz } from '../test/support/corpora.ts';

/**
 * `unicode61`: FTS5's default (word tokens, case-folded; a run of kanji and kana is one token). `trigram`: every
 * 3-character substring (SQLite ≥ 3.34), case-sensitive here as our default matching is: what a user picks for
 * substrings and Japanese; a term of fewer than 3 characters matches no row through MATCH.
 */
export type Fts5Tokenizer = 'unicode61' | 'trigram';

/** How one query is put to an FTS5 table: a MATCH expression, or (trigram, short terms) GLOB patterns, a scan. */
export type Fts5Query = { readonly match: string } | { readonly glob: readonly string[] };

export interface Fts5Table {
  readonly tokenizer: Fts5Tokenizer;
  readonly buildMs: number;
  readonly bytes: number;
  /** Matching articles. */
  count(q: Fts5Query): number;
  /** Matches per period (summing to the count), per source and language (two facets), a first page of 10. */
  sameAnswer(q: Fts5Query): void;
  close(): void;
}

/** Builds `dir/<tokenizer>.db` from the corpora and opens it read-only. */
export function buildFts5(dir: string, tokenizer: Fts5Tokenizer): Fts5Table {
  const file = join(dir, `${tokenizer}.db`);
  const db = new Database(file);
  const t0 = performance.now();
  const tokenize = tokenizer === 'trigram' ? ", tokenize='trigram case_sensitive 1'" : '';
  // The columns our answer groups by (crawl period from warc_date, source, language), not indexed for search.
  db.exec(`CREATE VIRTUAL TABLE a USING fts5(text, period UNINDEXED, source UNINDEXED, language UNINDEXED${tokenize})`);
  const insert = db.prepare('INSERT INTO a(text, period, source, language) VALUES (?, ?, ?, ?)');
  const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
  db.transaction(() => {
    for (const f of corpusFiles())
      for (const r of readJsonlGz(f))
        insert.run(
          String(r['text'] ?? ''),
          str(r['warc_date'])?.slice(0, 7) ?? null,
          str(r['sitename']) ?? str(r['hostname']),
          str(r['language']),
        );
  })();
  const buildMs = performance.now() - t0;
  db.close();
  const ro = new Database(file, { readonly: true });
  const statements = (where: string, page: string) => ({
    count: ro.prepare(`SELECT count(*) AS n FROM a WHERE ${where}`),
    same: [
      ro.prepare(`SELECT period, count(*) AS n FROM a WHERE ${where} GROUP BY period`),
      ro.prepare(`SELECT source, count(*) AS n FROM a WHERE ${where} GROUP BY source`),
      ro.prepare(`SELECT language, count(*) AS n FROM a WHERE ${where} GROUP BY language`),
      ro.prepare(`SELECT rowid, ${page} AS s FROM a WHERE ${where} LIMIT 10`),
    ],
  });
  const byMatch = statements('a MATCH ?', "snippet(a, 0, '', '', '…', 16)");
  const byGlob = new Map<number, ReturnType<typeof statements>>();
  const prepared = (q: Fts5Query) => {
    if ('match' in q) return { s: byMatch, args: [q.match] };
    const n = q.glob.length;
    let s = byGlob.get(n);
    if (s === undefined)
      byGlob.set(
        n,
        (s = statements(Array.from({ length: n }, () => 'text GLOB ?').join(' AND '), 'substr(text, 1, 64)')),
      );
    return { s, args: q.glob };
  };
  return {
    tokenizer,
    buildMs,
    bytes: statSync(file).size,
    count(q) {
      const { s, args } = prepared(q);
      return (s.count.get(...args) as { n: number }).n;
    },
    sameAnswer(q) {
      const { s, args } = prepared(q);
      for (const st of s.same) st.all(...args);
    },
    close: () => ro.close(),
  };
}
