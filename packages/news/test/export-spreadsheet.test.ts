/**
 * The page's CSV export opened by a real spreadsheet: LibreOffice's CSV import (headless `soffice --convert-to`)
 * reads the file, and the cells are read back from the flat ODS it writes. Hashes must stay exact text, umlauts
 * and Japanese intact, formula-like titles inert. Skipped where LibreOffice is not installed
 * (Debian: `apt-get install libreoffice-calc-nogui`).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMINED_CSV_HEADER, examinedCsv, examinedXlsx } from '../src/client/export/export-data.ts';
import { CONCORDANCE_CSV_HEADER, concordanceCsv } from '../src/client/export/concordance-export.ts';
import { TIMELINE_CSV_HEADER, timelineCsv } from '../src/client/export/timeline-export.ts';
import { ArticleSet } from '../src/client/search/article-merge.ts';
import { EMPTY_FILTERS } from '../src/client/search/url-state.ts';
import { DEFAULT_MATCHING } from '../src/client/search/matching-options.ts';

const haveSoffice = spawnSync('soffice', ['--version'], { stdio: 'ignore' }).status === 0;
let dir = '';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'export-sheet-'));
});
afterAll(async () => {
  if (dir !== '') await rm(dir, { recursive: true, force: true });
});

interface Cell {
  readonly type: string;
  readonly text: string;
}

/** The cells of the first sheet of a flat ODS document, row by row (repeated cells expanded). */
function sheetCells(fods: string): Cell[][] {
  const rows: Cell[][] = [];
  for (const row of fods.matchAll(/<table:table-row[^>]*>([\s\S]*?)<\/table:table-row>/g)) {
    const cells: Cell[] = [];
    for (const c of row[1]!.matchAll(/<table:table-cell([^>]*?)(?:\/>|>([\s\S]*?)<\/table:table-cell>)/g)) {
      const attrs = c[1] ?? '';
      const repeat = Number(/table:number-columns-repeated="(\d+)"/.exec(attrs)?.[1] ?? '1');
      const type = /office:value-type="(\w+)"/.exec(attrs)?.[1] ?? 'empty';
      const text = (c[2] ?? '')
        .trim()
        .replace(/<text:tab\/>/g, '\t')
        .replace(/<[^>]+>/g, '')
        .replace(/&apos;/g, "'")
        .replace(/&quot;/g, '"')
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&amp;/g, '&');
      for (let i = 0; i < Math.min(repeat, 64); i++) cells.push({ type, text });
    }
    rows.push(cells);
  }
  return rows;
}

describe.skipIf(!haveSoffice)('CSV export in LibreOffice', () => {
  it('keeps a 20-digit text_xxhash64 as exact text, umlauts and Japanese intact, a formula title inert', async () => {
    const hash = '14196768045643192942';
    const set = new ArticleSet();
    set.addPage({
      index_version: 'r1',
      shard_id: '2024-03',
      rank_from: 0,
      rank_to: 2,
      page_occurrences: 2,
      page_distinct_documents: 2,
      page_matching_documents: 2,
      page_matching_occurrences: 2,
      documents: [
        {
          year: '2024',
          doc_ix: 17,
          occurrences: 1,
          first_rank: 0,
          metadata: {
            title: 'Grüße aus 東京',
            text_xxhash64: hash,
            warc_record_id: '<urn:uuid:1>',
            publish_date: '2026-01-06T17:48:23.417897',
          },
        },
        {
          year: '2024',
          doc_ix: 18,
          occurrences: 1,
          first_rank: 1,
          metadata: {
            title: '=1+1',
            text_xxhash64: '123',
            warc_record_id: '<urn:uuid:2>',
            publish_date: '2026-01-06T17:48:23+00:00',
          },
        },
      ],
    });
    const csv = examinedCsv(
      {
        release: 'r1',
        query: 'Grüße',
        index: 'news',
        yearMin: null,
        yearMax: null,
        filters: EMPTY_FILTERS,
        matching: DEFAULT_MATCHING,
        exportedAt: '2026-11-24T00:00:00Z',
      },
      { articles: set.articles(), intervals: set.examinedIntervals(), totals: set.totals() },
    );
    const file = join(dir, 'matches.csv');
    await writeFile(file, csv, 'utf8');
    // The byte order mark Excel on Windows needs to read UTF-8 on double-click.
    expect([...(await readFile(file)).subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    // Comma-separated, double quotes, UTF-8 (76), from line 1: the import dialog's choices for this file.
    execFileSync(
      'soffice',
      [
        '--headless',
        '--norestore',
        `-env:UserInstallation=file://${join(dir, 'profile')}`,
        '--infilter=CSV:44,34,76,1',
        '--convert-to',
        'fods',
        '--outdir',
        dir,
        file,
      ],
      { stdio: 'ignore', timeout: 120_000 },
    );
    const [header, first, second] = sheetCells(await readFile(join(dir, 'matches.fods'), 'utf8'));
    const col = (name: string) => EXAMINED_CSV_HEADER.indexOf(name as (typeof EXAMINED_CSV_HEADER)[number]);
    expect(header![0]!.text).toBe('export_scope');
    expect(first![col('text_xxhash64')]).toEqual({ type: 'string', text: `\t${hash}` });
    expect(first![col('title')]).toEqual({ type: 'string', text: 'Grüße aus 東京' });
    expect(first![col('query')]!.text).toBe('Grüße');
    expect(second![col('title')]).toEqual({ type: 'string', text: '\t=1+1' });
    // Timestamps with and without a zone: one column, one type (text), every digit kept.
    expect(first![col('publish_date')]).toEqual({ type: 'string', text: '\t2026-01-06T17:48:23.417897' });
    expect(second![col('publish_date')]).toEqual({ type: 'string', text: '\t2026-01-06T17:48:23+00:00' });
    // Short numbers stay numbers: only values a spreadsheet would round are kept as text.
    expect(second![col('text_xxhash64')]).toEqual({ type: 'float', text: '123' });
  }, 180_000);

  it('XLSX: keeps the hash, a formula-like title and a crawl month exact, with nothing added, and numbers as numbers', async () => {
    const set = new ArticleSet();
    set.addPage({
      index_version: 'r1',
      shard_id: '2024-03',
      rank_from: 0,
      rank_to: 2,
      page_occurrences: 2,
      page_distinct_documents: 2,
      page_matching_documents: 2,
      page_matching_occurrences: 2,
      documents: [
        {
          year: '2024',
          doc_ix: 17,
          occurrences: 1,
          first_rank: 0,
          metadata: { title: 'Grüße aus 東京', text_xxhash64: '14196768045643192942' },
        },
        { year: '2024', doc_ix: 18, occurrences: 1, first_rank: 1, metadata: { title: '=1+1', text_xxhash64: '0012' } },
      ],
    });
    const ctx = {
      release: 'r1',
      query: 'Grüße',
      index: 'news',
      yearMin: null,
      yearMax: null,
      filters: EMPTY_FILTERS,
      matching: DEFAULT_MATCHING,
      exportedAt: '2026-11-24T00:00:00Z',
    };
    const file = join(dir, 'matches-x.xlsx');
    await writeFile(
      file,
      await examinedXlsx(ctx, { articles: set.articles(), intervals: set.examinedIntervals(), totals: set.totals() }),
    );
    execFileSync(
      'soffice',
      [
        '--headless',
        '--norestore',
        `-env:UserInstallation=file://${join(dir, 'profile')}`,
        '--convert-to',
        'fods',
        '--outdir',
        dir,
        file,
      ],
      { stdio: 'ignore', timeout: 120_000 },
    );
    const [header, first, second] = sheetCells(await readFile(join(dir, 'matches-x.fods'), 'utf8'));
    const col = (name: (typeof EXAMINED_CSV_HEADER)[number]) => EXAMINED_CSV_HEADER.indexOf(name);
    expect(header!.map((c) => c.text).slice(0, 3)).toEqual(['export_scope', 'release', 'query']);
    expect(first![col('text_xxhash64')]).toEqual({ type: 'string', text: '14196768045643192942' });
    expect(first![col('title')]).toEqual({ type: 'string', text: 'Grüße aus 東京' });
    expect(first![col('first_shard_id')]).toEqual({ type: 'string', text: '2024-03' });
    expect(first![col('doc_ix')]).toEqual({ type: 'float', text: '17' });
    expect(second![col('title')]).toEqual({ type: 'string', text: '=1+1' });
    expect(second![col('text_xxhash64')]).toEqual({ type: 'string', text: '0012' });
  }, 180_000);

  it('keeps crawl months as text, contexts as written and counts as numbers in the concordance and counts-per-month CSVs', async () => {
    const ctx = {
      release: 'r1',
      query: '東京',
      index: 'news',
      yearMin: null,
      yearMax: null,
      filters: EMPTY_FILTERS,
      matching: DEFAULT_MATCHING,
      exportedAt: '2026-11-24T00:00:00Z',
    };
    await writeFile(
      join(dir, 'kwic.csv'),
      concordanceCsv(ctx, 'left', [
        {
          shardId: '2024-03',
          rank: 7,
          year: '2024',
          doc_ix: 17,
          offset: 120,
          left: '-5 % in ',
          match: '東京',
          right: ', sagte Müller',
          title: 'Grüße',
          hostname: 'a.example',
        },
      ]),
      'utf8',
    );
    await writeFile(
      join(dir, 'counts.csv'),
      timelineCsv(
        {
          release: 'r1',
          index: 'news',
          yearMin: null,
          yearMax: null,
          matching: 'exact capitals, also inside words',
          filters: '',
        },
        [
          {
            phrase: '東京',
            periods: [
              {
                period: '2024-03',
                year: '2024',
                occurrences: 3,
                articles: 1500,
                text_bytes: 2_000_000,
                shard_ids: ['2024-03'],
              },
            ],
          },
        ],
      ),
      'utf8',
    );
    execFileSync(
      'soffice',
      [
        '--headless',
        '--norestore',
        `-env:UserInstallation=file://${join(dir, 'profile')}`,
        '--infilter=CSV:44,34,76,1',
        '--convert-to',
        'fods',
        '--outdir',
        dir,
        join(dir, 'kwic.csv'),
        join(dir, 'counts.csv'),
      ],
      { stdio: 'ignore', timeout: 120_000 },
    );
    const [, line] = sheetCells(await readFile(join(dir, 'kwic.fods'), 'utf8'));
    const k = (name: (typeof CONCORDANCE_CSV_HEADER)[number]) => line![CONCORDANCE_CSV_HEADER.indexOf(name)];
    expect(k('shard_id')).toEqual({ type: 'string', text: '\t2024-03' });
    expect(k('left_context')).toEqual({ type: 'string', text: '\t-5 % in ' });
    expect(k('match')).toEqual({ type: 'string', text: '東京' });
    expect(k('right_context')).toEqual({ type: 'string', text: ', sagte Müller' });
    expect(k('rank')).toEqual({ type: 'float', text: '7' });
    const [, count] = sheetCells(await readFile(join(dir, 'counts.fods'), 'utf8'));
    const c = (name: (typeof TIMELINE_CSV_HEADER)[number]) => count![TIMELINE_CSV_HEADER.indexOf(name)];
    expect(c('period')).toEqual({ type: 'string', text: '\t2024-03' });
    expect(c('occurrences')).toEqual({ type: 'float', text: '3' });
    expect(c('per_million_bytes')).toEqual({ type: 'float', text: '1.5' });
    expect(c('per_1000_articles')).toEqual({ type: 'float', text: '2' });
  }, 180_000);
});
