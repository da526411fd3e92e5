import { describe, expect, it } from 'vitest';
import { EMPTY_FILTERS } from '../search/url-state.ts';
import { ArticleSet } from '../search/article-merge.ts';
import { parseCsv } from './csv.ts';
import {
  EXAMINED_CSV_HEADER,
  SAMPLE_CSV_HEADER,
  examinedCsv,
  examinedJson,
  exportFileName,
  sampleCsv,
  sampleJson,
  type ExportContext,
} from './export-data.ts';

const ctx: ExportContext = {
  release: '2026-11-01.1',
  query: 'Bundestag',
  index: 'news',
  yearMin: 2023,
  yearMax: null,
  filters: { ...EMPTY_FILTERS, languages: ['de', 'en'], countries: ['AT'] },
  matching: { caseInsensitive: true, wholeWord: false },
  exportedAt: '2026-11-21T09:00:00.000Z',
};
const hash = '18446744073709551557';

function examined() {
  const set = new ArticleSet();
  set.addPage({
    index_version: ctx.release,
    shard_id: '2024-03',
    rank_from: 0,
    rank_to: 3,
    page_occurrences: 3,
    page_distinct_documents: 2,
    page_matching_documents: 1,
    page_matching_occurrences: 2,
    documents: [
      {
        year: '2024',
        doc_ix: 17,
        occurrences: 2,
        first_rank: 0,
        metadata: { title: '=cmd|x', text_xxhash64: hash, warc_record_id: '<urn:uuid:1>', scores: { iptc_topic: 0.9 } },
      },
    ],
  });
  return { articles: set.articles(), intervals: set.examinedIntervals(), totals: set.totals() };
}

describe('exports', () => {
  it('writes examined matches as CSV with the search context, intervals and accumulated counts on every row', () => {
    const rows = parseCsv(examinedCsv(ctx, examined()));
    expect(rows[0]).toEqual([...EXAMINED_CSV_HEADER]);
    const row = Object.fromEntries(EXAMINED_CSV_HEADER.map((h, i) => [h, rows[1]?.[i]]));
    expect(row).toMatchObject({
      export_scope: 'examined_matches',
      release: '2026-11-01.1',
      query: 'Bundestag',
      year_min: '2023',
      year_max: '',
      matching: 'any capitalisation, also inside words',
      filters: 'languages=de;en & countries=AT',
      examined_intervals: '2024-03:[0,3)',
      examined_occurrences: '3',
      matching_occurrences: '2',
      matching_articles: '1',
      year: '2024',
      doc_ix: '17',
      occurrences: '2',
      text_xxhash64: `\t${hash}`,
      warc_record_id: '<urn:uuid:1>',
      title: '\t=cmd|x',
    });
  });

  it('keeps metadata values as they are in JSON, hashes as strings', () => {
    const json = JSON.parse(examinedJson(ctx, examined())) as Record<string, unknown> & {
      articles: { metadata: Record<string, unknown> }[];
    };
    expect(json).toMatchObject({
      scope: 'examined_matches',
      release: ctx.release,
      query: 'Bundestag',
      crawl_year_range: { year_min: 2023, year_max: null },
      format_version: 3,
      matching: { case: 'insensitive', whole_word: false },
      filters: { languages: ['de', 'en'], countries: ['AT'] },
      examined_intervals: [{ shard_id: '2024-03', rank_from: 0, rank_to: 3 }],
      examined_occurrences: 3,
      matching_occurrences: 2,
      matching_articles: 1,
    });
    expect(json.articles[0]?.metadata).toEqual({
      title: '=cmd|x',
      text_xxhash64: hash,
      warc_record_id: '<urn:uuid:1>',
      scores: { iptc_topic: 0.9 },
    });
  });

  it('exports the loaded sample with each occurrence and its snippet', () => {
    const sample = [
      {
        shardId: '2024-03',
        rank: 0,
        year: '2024',
        docIx: 17,
        snippet: '@ the Bundestag',
        metadata: { text_xxhash64: hash },
      },
    ];
    const rows = parseCsv(sampleCsv(ctx, sample));
    expect(rows[0]).toEqual([...SAMPLE_CSV_HEADER]);
    expect(rows[1]?.at(-1)).toBe('\t@ the Bundestag');
    expect(rows[1]?.[0]).toBe('loaded_sample');
    const json = JSON.parse(sampleJson(ctx, sample)) as { scope: string; sample: unknown[] };
    expect(json.scope).toBe('loaded_sample');
    expect(json.sample).toEqual([
      {
        shard_id: '2024-03',
        rank: 0,
        year: '2024',
        doc_ix: 17,
        snippet: '@ the Bundestag',
        metadata: { text_xxhash64: hash },
      },
    ]);
  });

  it('names files after the scope and phrase', () => {
    expect(exportFileName('examined', 'Angela Merkel / CDU', 'csv')).toBe('news-examined-angela-merkel-cdu.csv');
    expect(exportFileName('sample', '!!!', 'json')).toBe('news-sample.json');
    expect(exportFileName('matches', 'Kanalbrücke Zeta', 'csv')).toBe('news-matches-kanalbrucke-zeta.csv');
  });
});
