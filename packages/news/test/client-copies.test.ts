/**
 * A card's "and N copies" in real Chromium (issue 29, "Distinct stories"): the button discloses the story's articles
 * matching the search (as many as the card counts), by date, with outlet, day and headline linking out in a new
 * tab; "Show more" pages past 50; keyboard and screen-reader state; a 390 px phone; a failed load offers Retry.
 * Set NEWS_SCREENSHOT=1 to refresh docs/story-copies.png and docs/story-copies-390.png.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { buildRelease } from '../src/release/index.ts';
import { launchBrowser } from './client-support/browser.ts';
import { seriousViolations, sideways } from './client-support/page-checks.ts';
import { startService, type LiveService } from './client-support/stack.ts';

// Made-up words (no third-party text): a wire story run by 4 outlets, another by 53, one by 3 (one in English),
// and a story of its own.
const WIRE = 'Brakvoll meldet: Tessmer eröffnet die Fähre über den Lindsee am Morgen, zwei Boote fahren.';
const TRIO = 'Brakvoll schreibt: Tessmer baut am Lindsee einen neuen Steg für die Ruderer.';
const BIG = 'Brakvoll berichtet: Tessmer und der Hafenrat einigen sich auf neue Liegeplätze im Winter.';
const article = (n: number, text: string, day: number) => ({
  text,
  title: `Fährbericht ${n}`,
  url: `https://outlet${n}.example.org/story`,
  hostname: `outlet${n}.example.org`,
  sitename: `Outlet ${n} ${'Nachrichtenverbund'.repeat(n === 2 ? 4 : 1)}`,
  language: 'de',
  warc_date: `2025-0${1 + (day % 6)}-${String(1 + (day % 27)).padStart(2, '0')}T10:00:00`,
  warc_record_id: `<urn:uuid:00000000-0000-4000-8000-${String(n).padStart(12, '0')}>`,
});
const ARTICLES = [
  ...[1, 2, 3, 4].map((n) => article(n, WIRE, n * 5)),
  ...Array.from({ length: 53 }, (_, i) => article(100 + i, BIG, i)),
  article(9, 'Brakvoll und Tessmer gehen am Abend gemeinsam nach Hause.', 2),
  // A story run in German twice and once in English: a language filter leaves one copy out of the search.
  ...[200, 201, 202].map((n) => ({ ...article(n, TRIO, n), language: n === 202 ? 'en' : 'de' })),
];
const QUERY = 'Brakvoll AND Tessmer';

const shots = process.env['NEWS_SCREENSHOT'] === '1';
/** A viewport-sized PNG with `card` at the top, its list open. */
async function shot(page: Page, card: ReturnType<Page['locator']>, name: string): Promise<void> {
  await card.evaluate((e) => e.scrollIntoView());
  await page.screenshot({ path: fileURLToPath(new URL(`../../../docs/${name}`, import.meta.url)) });
}

let dir = '';
let service: LiveService | undefined;
let browser: Awaited<ReturnType<typeof launchBrowser>> | undefined;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'client-copies-'));
  const input = join(dir, 'copies.jsonl');
  await writeFile(input, ARTICLES.map((a) => JSON.stringify(a)).join('\n') + '\n');
  await buildRelease({ inputs: [input], out: join(dir, 'release'), indexVersion: 'copies-a', concurrency: 1 });
  service = await startService(join(dir, 'release'), 'copies-a');
  browser = await launchBrowser();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await service?.close();
  await rm(dir, { recursive: true, force: true });
});

async function open(width = 1280, filters = ''): Promise<Page> {
  const page = await browser!.context.newPage();
  page.on('pageerror', (e) => {
    throw e;
  });
  await page.setViewportSize({ width, height: 900 });
  await page.goto(`${service!.url}/?q=${encodeURIComponent(QUERY)}&dedupe=exact${filters}`);
  await page.locator('#query-heading', { hasText: '4 stories' }).waitFor();
  return page;
}

const card = (page: Page, copies: string) => page.locator('#query-results article.result', { hasText: copies });

describe('"and N copies" under a story card', () => {
  it("lists the story's articles with outlet, day and headline links on demand, as many as the card counts", async () => {
    const page = await open();
    const wire = card(page, 'and 3 copies');
    const toggle = wire.getByRole('button', { name: 'and 3 copies' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await wire.locator('.copies-list').isHidden()).toBe(true);
    await toggle.click();
    const items = wire.locator('.copies-items li');
    await expect.poll(() => items.count()).toBe(4);
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    // By date: outlet 4 ran it first (March), outlet 1 last (June).
    expect(await wire.locator('.copy-outlet').allTextContents()).toEqual([
      'Outlet 4 Nachrichtenverbund',
      'Outlet 3 Nachrichtenverbund',
      `Outlet 2 ${'Nachrichtenverbund'.repeat(4)}`,
      'Outlet 1 Nachrichtenverbund',
    ]);
    expect(await wire.locator('.copy-date').allTextContents()).toEqual([
      '2025-03-21',
      '2025-04-16',
      '2025-05-11',
      '2025-06-06',
    ]);
    const links = wire.locator('a.copy-title');
    expect(await links.evaluateAll((as) => as.map((a) => [a.getAttribute('href'), a.getAttribute('target')]))).toEqual(
      [4, 3, 2, 1].map((n) => [`https://outlet${n}.example.org/story`, '_blank']),
    );
    expect(await wire.locator('li', { hasText: '(this card)' }).count()).toBe(1);
    expect(await wire.locator('.copies-status').textContent()).toBe('All 4 articles of this story in this search.');
    expect(await seriousViolations(page)).toEqual([]);
    if (shots) await shot(page, wire, 'story-copies.png');
    // The keyboard closes and opens it again without a second request's list.
    await toggle.focus();
    await page.keyboard.press('Enter');
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await wire.locator('.copies-list').isHidden()).toBe(true);
    await page.keyboard.press('Space');
    expect(await wire.locator('.copies-list').isVisible()).toBe(true);
    expect(await items.count()).toBe(4);
    await page.close();
  });

  it('pages a story of 53 articles 50 at a time with Show more, on a 390 px phone without sideways scroll', async () => {
    const page = await open(390);
    const big = card(page, 'and 52 copies');
    await big.getByRole('button', { name: 'and 52 copies' }).click();
    const items = big.locator('.copies-items li');
    await expect.poll(() => items.count()).toBe(50);
    expect(await big.locator('.copies-status').textContent()).toBe('50 of 53 shown.');
    await big.getByRole('button', { name: 'Show 3 more of 3' }).click();
    await expect.poll(() => items.count()).toBe(53);
    // The focus goes on at the first new copy's headline, not lost with the vanished button.
    expect(
      await page.evaluate(
        () => document.activeElement?.closest('li') === document.querySelectorAll('.copies-items li')[50],
      ),
    ).toBe(true);
    const keys = await items.evaluateAll((lis) => lis.map((li) => li.getAttribute('data-key')));
    expect(new Set(keys).size).toBe(53);
    expect(await big.getByRole('button', { name: /^Show/ }).isHidden()).toBe(true);
    await card(page, 'and 3 copies').getByRole('button', { name: 'and 3 copies' }).click();
    await expect.poll(() => card(page, 'and 3 copies').locator('.copies-items li').count()).toBe(4);
    const s = await sideways(page);
    expect(s.scrollWidth, s.wide).toBeLessThanOrEqual(s.clientWidth);
    expect(await seriousViolations(page)).toEqual([]);
    if (shots) await shot(page, card(page, 'and 3 copies'), 'story-copies-390.png');
    await page.close();
  });

  it('says a failed load in the list with Retry', async () => {
    const page = await open();
    // Every copies call fails as an unreachable service does.
    await page.route('**/api/v2/search/copies', (route) => route.abort('connectionrefused'));
    const wire = card(page, 'and 3 copies');
    await wire.getByRole('button', { name: 'and 3 copies' }).click();
    const status = wire.locator('.copies-status');
    await status.filter({ hasText: 'could not be loaded' }).waitFor();
    expect(await status.getAttribute('role')).toBe('status');
    await page.unroute('**/api/v2/search/copies');
    await wire.getByRole('button', { name: 'Retry' }).click();
    await expect.poll(() => wire.locator('.copies-items li').count()).toBe(4);
    expect(await status.textContent()).toBe('All 4 articles of this story in this search.');
    await page.close();
  });

  it('says how many articles of the story the search leaves out, without listing them', async () => {
    const page = await open(1280, '&languages=de');
    const trio = card(page, 'and 1 copy');
    await trio.getByRole('button', { name: 'and 1 copy' }).click();
    await expect.poll(() => trio.locator('.copies-items li').count()).toBe(2);
    expect(await trio.locator('.copies-status').textContent()).toBe(
      'All 2 articles of this story in this search. The corpus holds 1 more article of this story that the search leaves out (its query, years or filters).',
    );
    await page.close();
  });
});
