/**
 * The search page's layout and wording in real Chromium against a live worker + gateway: no sideways scrolling on
 * a phone (390 px) or with a long query on a desktop, chart labels that fit whatever the counts, cards that say
 * what an article is even without a title, and a tab title and year range in words.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { buildTestRelease, startService, type LiveService } from './client-support/stack.ts';
import { launchBrowser } from './client-support/browser.ts';
import { leadSentence } from '../src/client/search/lead-sentence.ts';

let root: string;
let service: LiveService;
let browser: Awaited<ReturnType<typeof launchBrowser>>;
let context: BrowserContext;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'client-layout-'));
  service = await startService(await buildTestRelease(root, 'layout-a'), 'layout-a');
  browser = await launchBrowser();
  context = browser.context;
});

afterAll(async () => {
  await browser?.close();
  await service?.close();
  await rm(root, { recursive: true, force: true });
});

async function open(query: string, width: number): Promise<Page> {
  const page = await context.newPage();
  page.on('pageerror', (e) => {
    throw e;
  });
  await page.setViewportSize({ width, height: 900 });
  await page.goto(`${service.url}/${query}`);
  return page;
}

const results = (page: Page) => page.locator('#examined-summary', { hasText: 'Examined' }).waitFor();

/** The page's scroll width against its viewport width, and what sticks out when they differ. */
const sideways = (page: Page) =>
  page.evaluate(() => {
    const root = document.documentElement;
    const wide = [...document.querySelectorAll('body *')]
      .filter((e) => e.getBoundingClientRect().right > root.clientWidth + 0.5)
      .slice(0, 5)
      .map((e) => `${e.tagName.toLowerCase()}#${e.id}.${e.className}`);
    return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, wide };
  });

describe('search page layout', () => {
  it('does not scroll sideways at 390 px: welcome, results with the chart, and an opened details panel', async () => {
    const page = await open('', 390);
    let m = await sideways(page);
    expect(m.scrollWidth, m.wide.join(' ')).toBe(m.clientWidth);
    await page.fill('#q', 'die');
    await page.press('#q', 'Enter');
    await results(page);
    await page.locator('article.result').first().getByRole('button', { name: 'Details' }).click();
    m = await sideways(page);
    expect(m.scrollWidth, m.wide.join(' ')).toBe(m.clientWidth);
    await page.close();
  });

  it('does not scroll sideways at 1280 px with a 140-character query (total, chart caption, empty message)', async () => {
    const long = `${'Donaudampfschifffahrtsgesellschaftskapitän'.repeat(3)}${'x'.repeat(14)}`;
    expect(long.length).toBe(140);
    const page = await open(`?q=${encodeURIComponent(long)}`, 1280);
    await results(page);
    const m = await sideways(page);
    expect(m.scrollWidth, m.wide.join(' ')).toBe(m.clientWidth);
    await page.close();
  });

  it('shortens a 10,000-character query visibly in the heading and legend and keeps it whole in the export (issue 29 bug 10)', async () => {
    // Ten thousand characters of the huge fixture article's repeated line, so the search finds them.
    const line = 'Messreihe Omega am Pegel Nord, Wasserstand und Strömung wurden notiert. ';
    const long = line
      .repeat(Math.ceil(10_000 / line.length))
      .slice(0, 10_000)
      .trimEnd();
    const page = await open('', 1280);
    await page.locator('#q').fill(long);
    await page.locator('#q').press('Enter');
    await results(page);
    const heading = (await page.locator('#total-label').textContent())!;
    expect(heading).toContain(`(${long.length.toLocaleString('en')} characters)`);
    expect(heading.length).toBeLessThan(160);
    const legend = (await page.locator('.legend-phrase').first().textContent())!;
    expect(legend).toMatch(/…” \([\d,]+ characters\)$/u);
    const [dl] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Counts per month (CSV)' }).click(),
    ]);
    expect(await readFile((await dl.path())!, 'utf8')).toContain(long);
    const m = await sideways(page);
    expect(m.scrollWidth, m.wide.join(' ')).toBe(m.clientWidth);
    await page.close();
  });

  it('keeps every y-axis label of the chart inside it for counts in the millions', async () => {
    const page = await context.newPage();
    page.on('pageerror', (e) => {
      throw e;
    });
    // The real timeline answer with counts a large corpus has ("the").
    await page.route('**/api/v2/timeline', async (route) => {
      const real = (await (await route.fetch()).json()) as Record<string, unknown>;
      const period = (p: string, occurrences: number) => ({
        period: p,
        year: '2024',
        occurrences,
        articles: 90_000,
        text_bytes: 400_000_000,
        shard_ids: [p],
      });
      await route.fulfill({
        json: {
          ...real,
          total_occurrences: 2_400_000,
          periods: [period('2024-01', 1_300_000), period('2024-02', 1_100_000)],
        },
      });
    });
    await page.route('**/api/v2/documents', (route) =>
      route.fulfill({ status: 503, json: { detail: 'not needed here', code: 'worker_unavailable' } }),
    );
    await page.goto(`${service.url}/?q=die`);
    await page.getByRole('radio', { name: 'Raw counts' }).check();
    await page.locator('[data-testid=chart] text.tick').first().waitFor();
    const labels = await page
      .locator('[data-testid=chart] text.tick[text-anchor=end]')
      .evaluateAll((els) => els.map((e) => ({ text: e.textContent, x: (e as SVGTextElement).getBBox().x })));
    expect(labels.map((l) => l.text)).toContain('1,500,000');
    for (const l of labels) expect(l.x, `label ${l.text}`).toBeGreaterThanOrEqual(0);
    await page.close();
  });
});

describe('search page wording', () => {
  it('names the search in the tab title and says single and open crawl-year ranges in words', async () => {
    const page = await open('?q=die&year_min=2024&year_max=2024', 1280);
    await results(page);
    expect(await page.title()).toBe('“die” · News corpus search');
    const note = async () => (await page.locator('#total-note').textContent()) ?? '';
    expect(await note()).toContain('In crawl year 2024,');
    await page.goto(`${service.url}/?q=die&year_min=2024`);
    await results(page);
    expect(await note()).toContain('In crawl years from 2024,');
    await page.goto(`${service.url}/?q=die&year_max=2025`);
    await results(page);
    expect(await note()).toContain('In crawl years up to 2025,');
    await page.goto(`${service.url}/`);
    expect(await page.title()).toBe('News corpus search');
    await page.close();
  });

  it('offers a Sources example that matches articles: each value of the placeholder finds one', async () => {
    const page = await open('', 1280);
    const values = ((await page.locator('#sources').getAttribute('placeholder')) ?? '').split(';').map((v) => v.trim());
    expect(values.length).toBeGreaterThan(0);
    for (const value of values) {
      await page.goto(`${service.url}/?q=Aufregung&sources=${encodeURIComponent(value)}`);
      await results(page);
      expect(await page.locator('article.result').count(), value).toBeGreaterThan(0);
    }
    await page.close();
  });

  it('shows nothing of the previous search while a new one is asked for', async () => {
    const page = await open('?q=die', 1280);
    await results(page);
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => {
      release = r;
    });
    await page.route('**/api/v2/find', async (route) => {
      await held;
      await route.continue();
    });
    await page.fill('#q', 'Regierung');
    await page.press('#q', 'Enter');
    await expect.poll(() => page.locator('#results').isHidden()).toBe(true);
    expect(await page.locator('#export-examined-csv').isVisible()).toBe(false);
    expect(await page.locator('#status').textContent()).toContain('Searching for “Regierung”');
    release();
    await results(page);
    expect(await page.locator('#total-label').textContent()).toContain('Regierung');
    await page.close();
  });

  it('"Examine next" visibly adds cards: 25 more, the first of them focused', async () => {
    const page = await open('?q=die', 1280);
    await results(page);
    expect(await page.locator('article.result').count()).toBe(25);
    const before = (await page.locator('#examined-summary').textContent()) ?? '';
    await page.click('#examine-next');
    await page.waitForFunction((b) => document.getElementById('examined-summary')?.textContent !== b, before);
    const loaded = Number(
      /· ([\d,]+) articles? with/
        .exec((await page.locator('#examined-summary').textContent()) ?? '')?.[1]
        ?.replace(/,/g, ''),
    );
    expect(loaded).toBeGreaterThan(25);
    expect(await page.locator('article.result').count()).toBe(Math.min(50, loaded));
    expect(
      await page.evaluate(
        () => document.activeElement?.closest('article.result') === document.querySelectorAll('article.result')[25],
      ),
    ).toBe(true);
    await page.close();
  });

  it('retries a 503 after its Retry-After, then says in plain words the service is busy and offers Retry', async () => {
    const page = await context.newPage();
    page.on('pageerror', (e) => {
      throw e;
    });
    const asked: number[] = [];
    let down = true;
    await page.route('**/api/v2/find', async (route) => {
      asked.push(Date.now());
      if (!down) {
        await route.continue();
        return;
      }
      await route.fulfill({
        status: 503,
        headers: { 'retry-after': '1' },
        json: {
          detail:
            'The release identity is not confirmed (The search worker did not answer within 2000 ms; try again shortly.); v2 requests need the worker to serve release layout-a.',
          code: 'release_unavailable',
        },
      });
    });
    await page.goto(`${service.url}/?q=die`);
    const alert = page.locator('#alert');
    await alert.locator('button', { hasText: 'Retry' }).waitFor({ timeout: 20_000 });
    expect(await alert.textContent()).toContain('The search service is busy or restarting');
    expect(await alert.textContent()).not.toContain('release identity');
    expect(asked).toHaveLength(3);
    for (let i = 1; i < asked.length; i++) expect(asked[i]! - asked[i - 1]!).toBeGreaterThanOrEqual(950);
    down = false;
    await alert.locator('button', { hasText: 'Retry' }).click();
    await results(page);
    expect(await alert.isHidden()).toBe(true);
    await page.close();
  });

  it('tells what a shared link asked for that it left out: bad years, an index the service does not have', async () => {
    const page = await open('?q=die&year_min=abcd&year_max=1800', 1280);
    await results(page);
    const alert = page.locator('#alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('first crawl year “abcd”');
    expect(await alert.textContent()).toContain('last crawl year “1800”');
    expect(await page.locator('#total-note').textContent()).toContain('In all crawl years');

    await page.goto(`${service.url}/?q=die&index=foo`);
    await alert.waitFor();
    expect(await alert.textContent()).toContain('index “foo”, which this service does not have (it has news)');
    expect(
      await page.locator('#index option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value)),
    ).toEqual(['news']);
    expect(await page.locator('#results').isHidden()).toBe(true);
    await page.close();
  });

  it('says plainly when the release cannot filter by country, stops examining and offers the search without it', async () => {
    const page = await context.newPage();
    page.on('pageerror', (e) => {
      throw e;
    });
    // The answer of a release built without --countries (search-v2 filters), as the gateway sends it: no Retry-After.
    await page.route('**/api/v2/documents', async (route) => {
      if (!(JSON.parse(route.request().postData() ?? '{}') as { countries?: unknown }).countries) {
        await route.continue();
        return;
      }
      await route.fulfill({
        status: 503,
        json: {
          code: 'country_attribution_unavailable',
          detail:
            'this release has no country attribution table, so the countries filter cannot be applied; drop it or ask the operator to build the release with --countries',
        },
      });
    });
    // The corpus info (which offers the filter) is held until the refusal is on screen: the order in which a late
    // info answer once turned the box back on.
    let refusalShown = (): void => undefined;
    const shown = new Promise<void>((resolve) => (refusalShown = resolve));
    await page.route('**/api/v2/info*', async (route) => {
      await shown;
      await route.continue();
    });
    await page.goto(`${service.url}/?q=die&countries=AT`);
    const alert = page.locator('#alert');
    await alert.waitFor();
    refusalShown();
    await page.locator('#corpus-info').filter({ hasText: 'release' }).waitFor();
    expect(await alert.textContent()).toContain('This corpus release has no publisher-country information');
    expect(await alert.textContent()).not.toContain('--countries');
    expect(await page.locator('#examine-next').isHidden()).toBe(true);
    expect(await page.locator('#countries').isDisabled()).toBe(true);
    await alert.getByRole('button', { name: 'Search without the country filter' }).click();
    await page.locator('article.result').first().waitFor();
    expect(new URL(page.url()).searchParams.get('countries')).toBeNull();
    expect(await alert.isHidden()).toBe(true);
    await page.close();
  });

  it('heads an untitled card with its lead sentence and shows author, URL and a readable size', async () => {
    const page = await context.newPage();
    page.on('pageerror', (e) => {
      throw e;
    });
    // Corpora without titles (10kGNAD): the first article of each page loses its title and gains an author.
    await page.route('**/api/v2/documents', async (route) => {
      const real = (await (await route.fetch()).json()) as { documents: { metadata: Record<string, unknown> }[] };
      const [first] = real.documents;
      if (first !== undefined)
        first.metadata = {
          ...first.metadata,
          title: null,
          author: 'Erika Mustermann',
          url: 'https://www.example.org/politik/artikel-1/',
        };
      await route.fulfill({ json: real });
    });
    await page.goto(`${service.url}/?q=die`);
    await results(page);
    const card = page.locator('article.result').first();
    await card.locator('.snippet:not(.loading)').waitFor();
    expect(await card.locator('.meta').textContent()).toContain('By Erika Mustermann');
    expect(await card.locator('.url a').textContent()).toBe('www.example.org/politik/artikel-1');
    await card.getByRole('button', { name: 'Read full article' }).click();
    const size = card.locator('.full-text p.muted', { hasText: 'of text' });
    await size.waitFor();
    expect(await size.textContent()).toMatch(
      /^(\d+ bytes|\d+(\.\d)? KB|[\d,]+ KB|\d+(\.\d)? MB) of text · matches highlighted$/,
    );
    // The heading is the article's lead sentence (issue 13 feature 6), read from its start, not the match's context.
    const text = (await card.locator('.full-text .snippet').textContent()) ?? '';
    await expect.poll(async () => (await card.locator('h3').textContent())?.trim()).toBe(leadSentence(text));
    expect(leadSentence(text)).not.toMatch(/^Untitled/);
    await page.close();
  });
});
