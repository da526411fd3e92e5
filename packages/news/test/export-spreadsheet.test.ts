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
import { EXAMINED_CSV_HEADER, examinedCsv } from '../src/client/export/export-data.ts';
import { ArticleSet } from '../src/client/search/article-merge.ts';
import { EMPTY_FILTERS } from '../src/client/search/url-state.ts';

const haveSoffice = spawnSync('soffice', ['--version'], { stdio: 'ignore' }).status === 0;
let dir = '';

beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'export-sheet-')); });
afterAll(async () => { if (dir !== '') await rm(dir, { recursive: true, force: true }); });

interface Cell { readonly type: string; readonly text: string }

/** The cells of the first sheet of a flat ODS document, row by row (repeated cells expanded). */
function sheetCells(fods: string): Cell[][] {
  const rows: Cell[][] = [];
  for (const row of fods.matchAll(/<table:table-row[^>]*>([\s\S]*?)<\/table:table-row>/g)) {
    const cells: Cell[] = [];
    for (const c of row[1]!.matchAll(/<table:table-cell([^>]*?)(?:\/>|>([\s\S]*?)<\/table:table-cell>)/g)) {
      const attrs = c[1] ?? '';
      const repeat = Number(/table:number-columns-repeated="(\d+)"/.exec(attrs)?.[1] ?? '1');
      const type = /office:value-type="(\w+)"/.exec(attrs)?.[1] ?? 'empty';
      const text = (c[2] ?? '').trim().replace(/<text:tab\/>/g, '\t').replace(/<[^>]+>/g, '')
        .replace(/&apos;/g, "'").replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
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
      index_version: 'r1', shard_id: '2024-03', rank_from: 0, rank_to: 2, page_occurrences: 2,
      page_distinct_documents: 2, page_matching_documents: 2, page_matching_occurrences: 2,
      documents: [
        { year: '2024', doc_ix: 17, occurrences: 1, first_rank: 0, metadata: { title: 'Grüße aus 東京', text_xxhash64: hash, warc_record_id: '<urn:uuid:1>' } },
        { year: '2024', doc_ix: 18, occurrences: 1, first_rank: 1, metadata: { title: '=1+1', text_xxhash64: '123', warc_record_id: '<urn:uuid:2>' } },
      ],
    });
    const csv = examinedCsv(
      { release: 'r1', query: 'Grüße', index: 'news', yearMin: null, yearMax: null, filters: EMPTY_FILTERS, exportedAt: '2026-11-24T00:00:00Z' },
      { articles: set.articles(), intervals: set.examinedIntervals(), totals: set.totals() },
    );
    const file = join(dir, 'matches.csv');
    await writeFile(file, csv, 'utf8');
    // The byte order mark Excel on Windows needs to read UTF-8 on double-click.
    expect([...(await readFile(file)).subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    // Comma-separated, double quotes, UTF-8 (76), from line 1: the import dialog's choices for this file.
    execFileSync('soffice', ['--headless', '--norestore', `-env:UserInstallation=file://${join(dir, 'profile')}`,
      '--infilter=CSV:44,34,76,1', '--convert-to', 'fods', '--outdir', dir, file], { stdio: 'ignore', timeout: 120_000 });
    const [header, first, second] = sheetCells(await readFile(join(dir, 'matches.fods'), 'utf8'));
    const col = (name: string) => EXAMINED_CSV_HEADER.indexOf(name as (typeof EXAMINED_CSV_HEADER)[number]);
    expect(header![0]!.text).toBe('export_scope');
    expect(first![col('text_xxhash64')]).toEqual({ type: 'string', text: `\t${hash}` });
    expect(first![col('title')]).toEqual({ type: 'string', text: 'Grüße aus 東京' });
    expect(first![col('query')]!.text).toBe('Grüße');
    expect(second![col('title')]).toEqual({ type: 'string', text: '\t=1+1' });
    // Short numbers stay numbers: only values a spreadsheet would round are kept as text.
    expect(second![col('text_xxhash64')]).toEqual({ type: 'float', text: '123' });
  }, 180_000);
});
