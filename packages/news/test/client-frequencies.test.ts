/**
 * The frequency list on the search page in real Chromium against a live worker + gateway (issue 29): the most
 * frequent words of one subcorpus as the API lists them (count, per million, share), a word filter, sorting, "Show
 * more", CSV/XLSX export, a word searching for itself, and the subcorpus, sort and filter kept in the URL; at 390 px,
 * by keyboard and in dark mode. Set NEWS_SCREENSHOT=1 to refresh docs/frequency-list*.png.
 */
import { describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { parseCsv } from '../src/client/export/index.ts';
import { useLivePages } from './client-support/live-page.ts';
import { seriousViolations, sideways } from './client-support/page-checks.ts';
import { referenceCall } from './client-support/reference-call.ts';

const live = useLivePages('frequencies-a', 900);
const shots = process.env['NEWS_SCREENSHOT'] === '1';
const doc = (name: string) => fileURLToPath(new URL(`../../../docs/${name}`, import.meta.url));

interface Frequencies {
  tokens: number;
  words: { word: string; count: number; per_million: number }[];
}

async function frequencies(body: Record<string, unknown>): Promise<Frequencies> {
  const res = await referenceCall(`${live.service.url}/api/v2/frequencies`, { index: 'news', limit: 1000, ...body });
  expect(res.status).toBe(200);
  return res.json() as Promise<Frequencies>;
}

async function periodsOf(): Promise<string[]> {
  const info = (await (await fetch(`${live.service.url}/api/v2/info`)).json()) as { shards: { shard_id: string }[] };
  return [...new Set(info.shards.map((s) => s.shard_id.split('.')[0]!))].sort();
}

const fmt = (v: number) => new Intl.NumberFormat('en', { maximumSignificantDigits: 3 }).format(v);
/** A row as the table shows it: rank, word, count, per million, share. */
const expectedRow = (f: Frequencies, i: number): string[] => {
  const w = f.words[i]!;
  return [
    (i + 1).toLocaleString('en'),
    w.word,
    w.count.toLocaleString('en'),
    fmt(w.per_million),
    `${fmt((w.count / f.tokens) * 100)}%`,
  ];
};
const rows = (page: Page) =>
  page
    .locator('[data-testid=frequencies] tbody tr')
    .evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent ?? '')));
const words = (page: Page) => page.locator('[data-testid=frequencies] tbody th').allTextContents();
const status = (page: Page) => page.locator('[data-testid=frequencies] .analysis-status');

async function checkPage(page: Page): Promise<void> {
  expect(await seriousViolations(page)).toEqual([]);
  const s = await sideways(page);
  expect(s.scrollWidth, s.wide).toBeLessThanOrEqual(s.clientWidth);
}

async function download(page: Page, name: string): Promise<{ name: string; bytes: Buffer }> {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name }).click()]);
  return { name: dl.suggestedFilename(), bytes: await readFile((await dl.path())!) };
}

describe('frequency list', () => {
  it("lists the newest period's words as the API does, filters, sorts, shows more and exports what it shows", async () => {
    const periods = await periodsOf();
    const newest = periods.at(-1)!;
    const page = await live.open('?q=Trump&tab=frequencies');
    await status(page)
      .filter({ hasText: /(frequent|different) words of/ })
      .waitFor();
    const f = await frequencies({ periods: [newest] });
    expect(f.words.length).toBeGreaterThan(100);
    expect(await page.inputValue('#fl-from')).toBe(newest);
    // The first 100 rows, as the API ranks them, with its counts and rates and each word's share of the tokens.
    expect(await rows(page)).toEqual(f.words.slice(0, 100).map((_, i) => expectedRow(f, i)));
    expect(new URL(page.url()).searchParams.get('fl')).toBe(`${newest}..${newest}`);

    await page.getByRole('button', { name: /^Show 100 more of/ }).click();
    expect(await rows(page)).toEqual(f.words.slice(0, 200).map((_, i) => expectedRow(f, i)));

    // The filter keeps the words holding it (capitals ignored), each with its rank.
    const needle = f.words[0]!.word.slice(0, 2).toUpperCase();
    await page.fill('#fl-filter', needle);
    const held = f.words
      .map((w, i) => ({ w, i }))
      .filter(({ w }) => w.word.toLowerCase().includes(needle.toLowerCase()));
    await expect.poll(() => rows(page)).toEqual(held.slice(0, 100).map(({ i }) => expectedRow(f, i)));
    expect(await status(page).textContent()).toContain(`${held.length.toLocaleString('en')} of them hold “${needle}”`);
    expect(new URL(page.url()).searchParams.get('fl_filter')).toBe(needle);

    // Count heading, by keyboard: least frequent first, focus kept on the heading.
    await page.locator('[data-testid=frequencies] [data-sort=count]').focus();
    await page.keyboard.press('Enter');
    await expect
      .poll(() => words(page))
      .toEqual(
        held
          .map(({ w }) => w.word)
          .reverse()
          .slice(0, 100),
      );
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-sort'))).toBe('count');
    expect(await page.locator('[data-testid=frequencies] th[aria-sort=ascending]').textContent()).toContain('Count');
    expect(new URL(page.url()).searchParams.get('fl_sort')).toBe('count_asc');
    await page.locator('[data-testid=frequencies] [data-sort=word]').click();
    const byWord = await words(page);
    expect(new Set(byWord)).toEqual(new Set(held.slice(0, 100).map(({ w }) => w.word)));
    expect(
      await page.evaluate(
        (ws) => ws.every((w, i) => i === 0 || new Intl.Collator().compare(ws[i - 1]!, w) <= 0),
        byWord,
      ),
    ).toBe(true);

    const csv = await download(page, 'Frequency list (CSV)');
    expect(csv.name).toBe(`news-frequency-list-${newest}-${newest}.csv`);
    const [header, ...csvRows] = parseCsv(csv.bytes.toString('utf8'));
    const col = (n: string) => header!.indexOf(n);
    // Every filtered word (not only the page), in the table's order, with the API's numbers.
    expect(csvRows.map((r) => r[col('word')])).toEqual(byWord);
    const first = f.words.find((w) => w.word === byWord[0])!;
    expect(Number(csvRows[0]![col('count')])).toBe(first.count);
    expect(Number(csvRows[0]![col('per_million')])).toBe(first.per_million);
    expect(csvRows[0]![col('word_filter')]).toBe(needle);
    expect(csvRows[0]![col('sort')]).toBe('word');
    const xlsx = await download(page, 'Frequency list (XLSX)');
    expect(xlsx.bytes.subarray(0, 2).toString('latin1')).toBe('PK');
    await checkPage(page);

    // A word searches for itself, on the articles tab.
    const word = byWord[0]!;
    await page.getByRole('button', { name: word, exact: true }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe(word);
    expect(await page.locator('#tab-articles').getAttribute('aria-selected')).toBe('true');
    expect(await page.inputValue('#q')).toBe(word);
    await page.close();
  }, 120_000);

  it('lists one outlet’s articles with the phrase as the API does, and a link restores it at 390 px and in dark mode', async () => {
    const periods = await periodsOf();
    const est = await referenceCall(`${live.service.url}/api/v2/estimate`, { index: 'news', query: 'Trump' });
    const outlet = ((await est.json()) as { facets: Record<string, { value: string }[]> }).facets['source']![0]!.value;
    const page = await live.open('?q=Trump&tab=frequencies');
    await status(page)
      .filter({ hasText: /(frequent|different) words of/ })
      .waitFor();
    await page.selectOption('#fl-from', periods[0]!);
    await page.fill('#fl-source', outlet);
    await page.getByLabel('articles with “Trump” only').check();
    await page.getByRole('button', { name: 'List words' }).click();
    await status(page)
      .filter({ hasText: /(frequent|different) words of/ })
      .filter({ hasText: outlet })
      .waitFor();
    const f = await frequencies({
      periods,
      sources: [outlet],
      query: '"Trump"',
      query_case: 'sensitive',
      whole_word: false,
    });
    expect(f.words.length).toBeGreaterThan(0);
    expect(await rows(page)).toEqual(f.words.slice(0, 100).map((_, i) => expectedRow(f, i)));
    await page.locator('[data-testid=frequencies] [data-sort=word]').click();
    await page.fill('#fl-filter', 'e');
    const url = new URL(page.url());
    expect(['fl', 'fl_src', 'fl_q', 'fl_sort', 'fl_filter'].map((k) => url.searchParams.get(k))).toEqual([
      `${periods[0]}..${periods.at(-1)}`,
      outlet,
      '1',
      'word',
      'e',
    ]);
    const shown = await words(page);
    expect(shown.length).toBeGreaterThan(0);

    const phone = await live.open(url.search, 390);
    await phone.emulateMedia({ colorScheme: 'dark' });
    await status(phone)
      .filter({ hasText: /(frequent|different) words of/ })
      .filter({ hasText: outlet })
      .waitFor();
    expect(await words(phone)).toEqual(shown);
    expect(await phone.inputValue('#fl-filter')).toBe('e');
    expect(await phone.inputValue('#fl-source')).toBe(outlet);
    expect(await phone.getByLabel('articles with “Trump” only').isChecked()).toBe(true);
    expect(await phone.locator('[data-testid=frequencies] th[aria-sort=ascending]').textContent()).toContain('Word');
    await checkPage(phone);
    await phone.close();
    await page.close();
  }, 120_000);

  it('fits 390 px without sideways scrolling and passes axe, light and dark', async () => {
    const page = await live.open('?q=Trump&tab=frequencies', 390);
    await page.locator('[data-testid=frequencies] tbody tr').first().waitFor();
    await checkPage(page);
    if (shots) await shot(page, 'frequency-list-390.png');
    await page.emulateMedia({ colorScheme: 'dark' });
    await checkPage(page);
    await page.close();
    if (shots) {
      const wide = await live.open('?q=Trump&tab=frequencies');
      await wide.locator('[data-testid=frequencies] tbody tr').first().waitFor();
      await shot(wide, 'frequency-list.png');
      await wide.close();
    }
  });
});

/** A viewport-sized PNG from the result tabs down (small files; the list runs long). */
async function shot(page: Page, name: string): Promise<void> {
  await page.evaluate(() => document.querySelector('#result-tabs')?.scrollIntoView());
  await page.screenshot({ path: doc(name) });
}
