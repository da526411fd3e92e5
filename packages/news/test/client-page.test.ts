/**
 * The search page in real Chromium against a live worker + gateway: search, filters, continuation, details,
 * full article, chart, exports (files read back field by field), the download script run with python3, and the
 * 409 stale-release path. Set NEWS_SCREENSHOT=1 to refresh docs/search-page.png.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { parseCsv } from '../src/client/export/index.ts';
import {
  buildTestRelease,
  fixtureArticles,
  FIXTURE_PHRASE,
  FORMULA_TITLE,
  MARKUP_TITLE,
  startService,
  type LiveService,
} from './client-support/stack.ts';
import { expectedArticles } from './client-support/expected.ts';
import { launchBrowser } from './client-support/browser.ts';
import { runPython } from './hub-support/run-python.ts';

let root: string;
let releaseA: string;
let releaseB: string;
let service: LiveService;
let browser: Awaited<ReturnType<typeof launchBrowser>>;
let context: BrowserContext;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'client-page-'));
  releaseA = await buildTestRelease(root, 'client-a');
  releaseB = await buildTestRelease(root, 'client-b');
  service = await startService(releaseA, 'client-a');
  browser = await launchBrowser();
  context = browser.context;
});

afterAll(async () => {
  await browser?.close();
  await service?.close();
  await rm(root, { recursive: true, force: true });
});

/** Console reports of blocked content: the page must work under its CSP without tripping it. */
const cspViolations: string[] = [];
afterEach(() => {
  expect(cspViolations).toEqual([]);
});

async function open(query = ''): Promise<Page> {
  const page = await context.newPage();
  page.on('pageerror', (e) => {
    throw e;
  });
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) cspViolations.push(m.text());
  });
  await page.goto(`${service.url}/${query}`);
  return page;
}

async function results(page: Page): Promise<string> {
  await page.locator('#examined-summary', { hasText: 'Examined' }).waitFor();
  return (await page.locator('#examined-summary').textContent()) ?? '';
}

async function examineAll(page: Page): Promise<string> {
  let summary = await results(page);
  while (await page.locator('#examine-next').isVisible()) {
    const before = summary;
    await page.click('#examine-next');
    await page.waitForFunction((b) => document.getElementById('examined-summary')?.textContent !== b, before);
    summary = (await page.locator('#examined-summary').textContent()) ?? '';
  }
  while (await page.locator('#show-more').isVisible()) await page.click('#show-more');
  return summary;
}

async function download(page: Page, button: string): Promise<{ name: string; text: string }> {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click(button)]);
  return { name: dl.suggestedFilename(), text: await readFile((await dl.path())!, 'utf8') };
}

async function apiFind(
  query: string,
): Promise<{ total_occurrences: number; shard_ids: string[]; segment_by_shard: [number, number][] }> {
  const res = await fetch(`${service.url}/api/v2/find`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, index: 'news' }),
  });
  return res.json() as never;
}

const cardKeys = (page: Page) =>
  page.locator('article.result').evaluateAll((els) => els.map((e) => e.getAttribute('data-key')));

describe('search page', () => {
  it('searches a phrase typed with the keyboard and shows the unfiltered total, the chart and the first 1,000 examined', async () => {
    const page = await open();
    // The phrase box has focus on load; "/" brings it back from anywhere else on the page.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('/');
    await page.keyboard.type('die');
    await page.keyboard.press('Enter');
    const summary = await results(page);
    const found = await apiFind('die');
    expect(found.total_occurrences).toBeGreaterThan(2000);
    expect(await page.locator('#total').textContent()).toBe(found.total_occurrences.toLocaleString('en'));
    expect(summary).toContain(`Examined 1,000 of ${found.total_occurrences.toLocaleString('en')} occurrences`);
    expect(new URL(page.url()).searchParams.get('q')).toBe('die');
    // The timeline lists every crawl month with an occurrence (its table is what a screen reader reads).
    const months = new Set(
      found.shard_ids
        .filter((_, i) => found.segment_by_shard[i]![1] > found.segment_by_shard[i]![0])
        .map((id) => id.split('.')[0]),
    );
    await page.locator('[data-testid=chart] tbody').waitFor({ state: 'attached' });
    const rows = await page.locator('[data-testid=chart] tbody th').allTextContents();
    for (const m of months) expect(rows).toContain(m);
    const firstMark = page.locator('article.result').first().locator('mark').first();
    expect(await firstMark.textContent()).toBe('die');
    expect(await page.locator('article.result').count()).toBe(25);
    await page.close();
  });

  it('examines the next 1,000 until done and merges articles across pages into the exact article set', async () => {
    const page = await open('?q=die');
    const summary = await examineAll(page);
    const expected = await expectedArticles(releaseA, 'die', null, null, {});
    const occurrences = [...expected.values()].reduce((n, a) => n + a.occurrences, 0);
    expect(summary).toContain(
      `${expected.size} articles with ${occurrences.toLocaleString('en')} occurrences in the examined pages`,
    );
    expect(new Set(await cardKeys(page))).toEqual(new Set(expected.keys()));
    expect(await page.locator('#examine-next').isHidden()).toBe(true);
    await page.close();
  });

  it('applies semicolon-separated filters to the examined articles and the total (issue 13 bug 6)', async () => {
    const page = await open();
    await page.fill('#q', 'die');
    await page.click('#filters summary');
    await page.fill('#countries', ' AT ;; de ');
    await page.press('#q', 'Enter');
    const summary = await examineAll(page);
    const expected = await expectedArticles(releaseA, 'die', null, null, { countries: ['AT', 'de'] });
    expect(expected.size).toBeGreaterThan(0);
    expect(summary).toContain(`${expected.size} matching article`);
    expect(new Set(await cardKeys(page))).toEqual(new Set(expected.keys()));
    const matching = [...expected.values()].reduce((n, a) => n + a.occurrences, 0);
    await expect.poll(() => page.locator('#total').textContent()).toBe(matching.toLocaleString('en'));
    expect(await page.locator('#total-note').textContent()).toContain(
      `${(await apiFind('die')).total_occurrences.toLocaleString('en')} before the filters`,
    );
    expect(new URL(page.url()).searchParams.get('countries')).toBe('AT;de');
    await page.close();
  });

  it('shows country attribution, classification scores and identifiers in the details, by keyboard', async () => {
    const page = await open(`?q=${encodeURIComponent(FIXTURE_PHRASE)}`);
    await results(page);
    const card = page.locator('article.result').filter({ hasText: 'HYPERLINK' });
    const button = card.getByRole('button', { name: 'Details' });
    await button.focus();
    await page.keyboard.press('Enter');
    expect(await button.getAttribute('aria-expanded')).toBe('true');
    const dd = async (label: string) =>
      (
        await card.locator('dt', { hasText: label }).first().locator('xpath=following-sibling::dd[1]').textContent()
      )?.trim();
    const meta = [...(await expectedArticles(releaseA, FIXTURE_PHRASE, null, null, {})).values()].find(
      (a) => a.metadata.title === FORMULA_TITLE,
    )!.metadata;
    expect(await dd('Country')).toBe('DE');
    expect(await dd('Attributed by')).toBe('operator list');
    expect(await dd('Confidence')).toBe('high');
    expect(await dd('Topic')).toBe('economy');
    expect(await dd('Score: iptc_topic')).toBe('0.870');
    expect(await dd('warc_record_id')).toBe(meta.warc_record_id);
    expect(await dd('text_xxhash64')).toBe(meta.text_xxhash64);
    expect(await dd('Release')).toBe('client-a');
    await page.close();
  });

  it('reads the full article, and says so clearly when it is over 1 MiB', async () => {
    const page = await open(`?q=${encodeURIComponent(FIXTURE_PHRASE)}`);
    await results(page);
    const small = page.locator('article.result').filter({ hasText: 'HYPERLINK' });
    await small.getByRole('button', { name: 'Read full article' }).click();
    await small.locator('.full-text .snippet').waitFor();
    expect(await small.locator('.full-text .snippet').textContent()).toBe(fixtureArticles()[0]!['text']);
    expect(await small.locator('.full-text mark').count()).toBe(2);
    const huge = page.locator('article.result').filter({ hasText: 'Messprotokoll der Kanalbrücke' });
    await huge.getByRole('button', { name: 'Read full article' }).click();
    await expect.poll(() => huge.locator('.full-text [role=alert]').textContent()).toContain('larger than 1 MiB');
    await page.close();
  });

  it('renders titles and text that contain markup as text, and links only http(s) URLs', async () => {
    const page = await open(`?q=${encodeURIComponent(FIXTURE_PHRASE)}`);
    await results(page);
    const card = page.locator('article.result').filter({ hasText: 'onerror' });
    expect(await card.locator('h3').textContent()).toBe(MARKUP_TITLE);
    await card.locator('.snippet-box:not([aria-busy])').waitFor();
    expect(await card.locator('.snippet').textContent()).toContain('<script>window.__injected=2</script>');
    expect(await card.locator('h3 a').count()).toBe(0);
    expect(await page.locator('#results img, #results script, #results b').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __injected?: number }).__injected)).toBeUndefined();
    await page.close();
  });

  it('exports examined matches and the loaded sample as CSV and JSON, field by field', async () => {
    const page = await open(`?q=${encodeURIComponent(FIXTURE_PHRASE)}&year_min=2025&year_max=2025&languages=de`);
    await results(page);
    await page
      .locator('.snippet-box[aria-busy]')
      .first()
      .waitFor({ state: 'detached' })
      .catch(() => undefined);
    await expect.poll(() => page.locator('.snippet-box[aria-busy]').count()).toBe(0);
    const expected = await expectedArticles(releaseA, FIXTURE_PHRASE, 2025, 2025, { languages: ['de'] });

    const csv = await download(page, '#export-examined-csv');
    expect(csv.name).toBe('news-matching-articles-kanalbrucke-zeta.csv');
    expect(csv.text.startsWith('\uFEFF"export_scope"')).toBe(true);
    const [header, ...rows] = parseCsv(csv.text);
    const records = rows.map((r) => Object.fromEntries(header!.map((h, i) => [h, r[i]])));
    expect(records).toHaveLength(expected.size);
    for (const r of records) {
      const e = expected.get(`${r['year']}:${r['doc_ix']}`)!;
      expect(r).toMatchObject({
        export_scope: 'examined_matches',
        release: 'client-a',
        query: FIXTURE_PHRASE,
        index: 'news',
        year_min: '2025',
        year_max: '2025',
        filters: 'languages=de',
        occurrences: String(e.occurrences),
        warc_record_id: e.metadata.warc_record_id,
      });
      // A hash over 15 digits carries the tab that keeps it text in a spreadsheet.
      expect(r['text_xxhash64']?.replace(/^\t(?=\d{16})/, '')).toBe(e.metadata.text_xxhash64);
      expect(r['examined_intervals']).toMatch(/^2025-\d\d:\[\d+,\d+\)/);
      expect(r['matching_articles']).toBe(String(expected.size));
      // The first occurrence in context: the match and text either side of it, as the concordance shows it.
      expect(r['first_match']).toBe(FIXTURE_PHRASE);
      expect(`${r['first_left_context']}${r['first_match']}${r['first_right_context']}`.length).toBeGreaterThan(
        FIXTURE_PHRASE.length,
      );
    }
    const formula = records.find((r) => r['title']?.includes('HYPERLINK'))!;
    expect(formula['title']).toBe(`\t${FORMULA_TITLE}`);

    const xlsx = await download(page, '#export-examined-xlsx');
    expect(xlsx.name).toBe('news-matching-articles-kanalbrucke-zeta.xlsx');
    expect(xlsx.text.startsWith('PK')).toBe(true);

    const json = JSON.parse((await download(page, '#export-examined-json')).text) as {
      articles: { year: string; doc_ix: number; metadata: Record<string, unknown> }[];
    } & Record<string, unknown>;
    expect(json).toMatchObject({
      scope: 'examined_matches',
      release: 'client-a',
      query: FIXTURE_PHRASE,
      crawl_year_range: { year_min: 2025, year_max: 2025 },
    });
    expect((json['filters'] as Record<string, string[]>)['languages']).toEqual(['de']);
    for (const a of json.articles) {
      const e = expected.get(`${a.year}:${a.doc_ix}`)!;
      expect(a.metadata['text_xxhash64']).toBe(e.metadata.text_xxhash64);
      expect(typeof a.metadata['text_xxhash64']).toBe('string');
      expect(a.metadata['title']).toBe(e.metadata.title);
    }

    const sampleCsv = parseCsv((await download(page, '#export-sample-csv')).text);
    expect(sampleCsv[0]).toContain('snippet');
    expect(sampleCsv.slice(1).map((r) => r[0])).toEqual(Array(expected.size).fill('loaded_sample'));
    const sampleJson = JSON.parse((await download(page, '#export-sample-json')).text) as {
      scope: string;
      sample: { snippet: string }[];
    };
    expect(sampleJson.scope).toBe('loaded_sample');
    expect(sampleJson.sample).toHaveLength(expected.size);
    expect(sampleJson.sample.every((s) => s.snippet.includes(FIXTURE_PHRASE))).toBe(true);
    // Each sample snippet reads exactly as its card: whole words, an ellipsis where the article goes on.
    for (const s of sampleJson.sample as unknown as { year: string; doc_ix: number; snippet: string }[]) {
      expect(s.snippet).toBe(
        await page.locator(`article.result[data-key="${s.year}:${s.doc_ix}"] .snippet-box .snippet`).textContent(),
      );
    }
    expect(sampleJson.sample.some((s) => s.snippet.endsWith(' …'))).toBe(true);
    await page.close();
  });

  it('generates a download script whose news-articles.jsonl equals the expected article set', async () => {
    const page = await open('?q=die&year_min=2024&countries=AT;DE');
    await results(page);
    const script = await download(page, '#download-script');
    expect(script.text.split('\n').slice(1, 5).join('\n')).toBe(
      '# /// script\n# requires-python = ">=3.8"\n# dependencies = []\n# ///',
    );
    const dir = await mkdtemp(join(root, 'script-'));
    await writeFile(join(dir, script.name), script.text);
    const run = await runPython(join(dir, script.name), [], dir);
    expect(run.stderr).toContain('wrote');
    expect(run.code).toBe(0);
    const lines = (await readFile(join(dir, 'news-articles.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const expected = await expectedArticles(releaseA, 'die', 2024, null, { countries: ['AT', 'DE'] });
    expect(expected.size).toBeGreaterThan(0);
    expect(lines.map((l) => `${l['year']}:${l['doc_ix']}`).sort()).toEqual([...expected.keys()].sort());
    for (const l of lines) {
      const e = expected.get(`${l['year']}:${l['doc_ix']}`)!;
      expect(l['occurrences']).toBe(e.occurrences);
      expect(l['text']).toBe(e.text);
      expect(l['index_version']).toBe('client-a');
      expect((l['metadata'] as Record<string, unknown>)['text_xxhash64']).toBe(e.metadata.text_xxhash64);
      expect((l['metadata'] as Record<string, unknown>)['warc_record_id']).toBe(e.metadata.warc_record_id);
    }
    await page.close();
  });

  it('keeps the search in the URL: a reload restores it and Back returns to the previous search', async () => {
    const page = await open(`?q=Regierung&year_min=2023&year_max=2026`);
    await results(page);
    expect(await page.inputValue('#q')).toBe('Regierung');
    expect(await page.inputValue('#year_min')).toBe('2023');
    await page.fill('#q', 'Zyxwvutsrq unfindable');
    await page.press('#q', 'Enter');
    await page.locator('.empty', { hasText: 'No article contains' }).waitFor();
    await page.goBack();
    await results(page);
    expect(await page.inputValue('#q')).toBe('Regierung');
    await page.reload();
    expect(await results(page)).toContain('Examined');
    expect(await page.inputValue('#year_max')).toBe('2026');
    if (process.env['NEWS_SCREENSHOT'] === '1') {
      await page.setViewportSize({ width: 1280, height: 1500 });
      await expect.poll(() => page.locator('.snippet-box[aria-busy]').count()).toBe(0);
      await page.screenshot({ path: fileURLToPath(new URL('../../../docs/search-page.png', import.meta.url)) });
    }
    await page.close();
  });

  it("shows the API's message when a search is refused, and nothing of an earlier search", async () => {
    const page = await open('?q=die&index=no_such_index');
    await page.locator('#alert').waitFor();
    expect(await page.locator('#alert').textContent()).toMatch(/index/i);
    expect(await page.locator('#results').isHidden()).toBe(true);
    await page.fill('#year_min', '2026');
    await page.fill('#year_max', '2024');
    await page.press('#q', 'Enter');
    await page.locator('#alert', { hasText: 'The first crawl year is after the last one.' }).waitFor();
    await page.close();
  });

  it('says the corpus was updated when a continuation answers 409, and reruns the search on request', async () => {
    const page = await open('?q=die');
    await results(page);
    // Swap only once the page is idle, as an operator's restart would find it between two reader actions.
    await expect.poll(() => page.locator('.snippet-box[aria-busy]').count()).toBe(0);
    const port = service.port;
    await service.close();
    service = await startService(releaseB, 'client-b', port);
    await page.click('#examine-next');
    const alert = page.locator('#alert');
    await expect.poll(() => alert.textContent(), { timeout: 20_000 }).toContain('The corpus was updated');
    expect(await page.locator('#examine-next').isDisabled()).toBe(true);
    await alert.getByRole('button', { name: 'Rerun search' }).click();
    await page.locator('#total-note', { hasText: 'release client-b' }).waitFor();
    expect(await alert.isHidden()).toBe(true);
    await page.close();
  });
});
