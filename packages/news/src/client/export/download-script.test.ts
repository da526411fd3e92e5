import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EMPTY_FILTERS } from '../search/url-state.ts';
import { buildDownloadScript } from './download-script.ts';

const input = {
  apiBase: 'http://127.0.0.1:9/',
  query: 'say "hi"\\ \u00e4 \n',
  index: 'news',
  yearMin: 2019,
  yearMax: null,
  filters: { ...EMPTY_FILTERS, languages: ['de'], sources: ["o'reilly.com"] },
  generatedAt: '2026-11-21T09:00:00Z',
};

describe('download script', () => {
  it('starts with a PEP 723 block that lists no dependency beyond the standard library', () => {
    const script = buildDownloadScript(input);
    expect(script.split('\n').slice(1, 5)).toEqual([
      '# /// script',
      '# requires-python = ">=3.8"',
      '# dependencies = []',
      '# ///',
    ]);
  });

  it('embeds query, index, years and filters as Python values exactly', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dl-script-'));
    const file = join(dir, 'news-download.py');
    writeFileSync(file, buildDownloadScript(input));
    const probe = `import importlib.util, json, sys
spec = importlib.util.spec_from_file_location("s", ${JSON.stringify(file)}); m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)
print(json.dumps([m.API, m.INDEX, m.QUERY, m.YEAR_MIN, m.YEAR_MAX, m.FILTERS, m.OUT_FILE, m.MATCHING]))`;
    const out = JSON.parse(execFileSync('python3', ['-c', probe], { encoding: 'utf8' })) as unknown;
    expect(out).toEqual([
      'http://127.0.0.1:9',
      'news',
      input.query,
      2019,
      null,
      { ...EMPTY_FILTERS, languages: ['de'], sources: ["o'reilly.com"] },
      'news-articles.jsonl',
      {},
    ]);
  });

  it('asks for every capitalisation when the search ignores capitals', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dl-script-'));
    const file = join(dir, 'news-download.py');
    writeFileSync(file, buildDownloadScript({ ...input, caseInsensitive: true }));
    const probe = `import importlib.util, json
spec = importlib.util.spec_from_file_location("s", ${JSON.stringify(file)}); m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)
print(json.dumps(m.MATCHING))`;
    expect(JSON.parse(execFileSync('python3', ['-c', probe], { encoding: 'utf8' }))).toEqual({ case: 'insensitive' });
  });
});
