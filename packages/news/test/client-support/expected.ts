/**
 * The reference answer for "every article matching a query, years and filters", computed straight from the
 * release (suffix-array intervals, located ranks, metadata stores): what the download script must reproduce.
 */
import { openRelease } from '../../src/release/index.ts';
import type { ArticleMetadata } from '../../src/release/index.ts';

export interface ExpectedArticle {
  readonly year: string;
  readonly doc_ix: number;
  readonly occurrences: number;
  readonly metadata: ArticleMetadata;
  readonly text: string;
}

export interface Filters {
  readonly languages?: readonly string[];
  readonly sources?: readonly string[];
  readonly countries?: readonly string[];
}

const key = (v: string | null) => (v === null ? null : v.normalize('NFKC').toLowerCase());

function passes(m: ArticleMetadata, f: Filters): boolean {
  const inList = (list: readonly string[] | undefined, ...values: (string | null)[]) =>
    list === undefined || list.length === 0 || values.some((v) => v !== null && list.map(key).includes(key(v)));
  return inList(f.languages, m.language) && inList(f.sources, m.hostname, m.sitename) && inList(f.countries, m.country);
}

export async function expectedArticles(
  releaseDir: string,
  query: string,
  yearMin: number | null,
  yearMax: number | null,
  filters: Filters,
): Promise<Map<string, ExpectedArticle>> {
  const release = await openRelease(releaseDir, { mode: 'memory' });
  const out = new Map<string, ExpectedArticle>();
  try {
    const index = release.indexes.get('news')!;
    const q = Buffer.from(query, 'utf8');
    for (const shard of index.shards) {
      const y = Number(shard.year);
      if ((yearMin !== null && y < yearMin) || (yearMax !== null && y > yearMax)) continue;
      const { lo, hi } = shard.reader.find(q);
      for (let rank = lo; rank < hi; rank++) {
        const { doc } = shard.reader.locate(rank);
        const docIx = shard.docBase + doc;
        const k = `${shard.year}:${docIx}`;
        const known = out.get(k);
        if (known) {
          out.set(k, { ...known, occurrences: known.occurrences + 1 });
          continue;
        }
        const metadata = index.metadata(shard.year)!.get(docIx)!;
        if (!passes(metadata, filters)) continue;
        out.set(k, {
          year: shard.year,
          doc_ix: docIx,
          occurrences: 1,
          metadata,
          text: shard.reader.documentBytes(doc).toString('utf8'),
        });
      }
    }
  } finally {
    release.close();
  }
  return out;
}
