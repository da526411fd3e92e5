/**
 * The search box's query language in real Chromium (issue 29 bug 8): operators, quotes, NEAR and prefixes get the
 * article-level view from `POST /api/v2/search` (exact total, per-period chart, cards paged by cursor, the canonical
 * form and the server's notes); a refused query is marked where it fails; no hits suggest Ignore capitals when that
 * finds some; a plain phrase keeps the occurrence view, with stray spaces trimmed visibly.
 */
import { describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { parseCsv } from '../src/client/export/index.ts';
import { FIXTURE_PHRASE } from './client-support/stack.ts';
import { useLivePages } from './client-support/live-page.ts';
import { seriousViolations, sideways } from './client-support/page-checks.ts';
import { referenceCall } from './client-support/reference-call.ts';

const live = useLivePages('query-a');

interface SearchAnswer {
  query: string;
  articles: number;
  notes: string[];
  periods: { period: string; articles: number }[];
  page: { year: string; doc_ix: number }[];
}

async function api<T>(path: string, body: Record<string, unknown>): Promise<T> {
  return (await referenceCall(`${live.service.url}/api/v2/${path}`, { index: 'news', ...body })).json() as Promise<T>;
}

async function search(page: Page, query: string): Promise<void> {
  await page.fill('#q', query);
  await page.press('#q', 'Enter');
}

const heading = (page: Page) => page.locator('#query-heading');

describe('the query language in the search box', () => {
  it('answers a boolean query with the exact article count, the canonical form, a chart and its cards', async () => {
    const page = await live.open();
    const query = 'Kanalbrücke AND (eröffnet OR Brücken)';
    const expected = await api<SearchAnswer>('search', { query, page_size: 25 });
    expect(expected.articles).toBe(2);
    await search(page, query);
    await heading(page).waitFor();
    expect(await heading(page).textContent()).toBe('2 articles match the query');
    expect(await page.locator('.query-read code').textContent()).toBe(expected.query);
    expect(await page.locator('[data-testid=query-chart] svg').count()).toBe(1);
    const keys = await page
      .locator('#query-results article.result')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-key')));
    expect(keys).toEqual(expected.page.map((a) => `${a.year}:${a.doc_ix}`));
    expect(await page.locator('#query-results article.result mark').first().textContent()).toBe('Kanalbrücke');
    // The occurrence view is not shown for a query.
    expect(await page.locator('#results').isHidden()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await page.close();
  });

  it('pages the cards by cursor to the exact total, each article once', async () => {
    const page = await live.open();
    const query = 'die OR der';
    const expected = await api<SearchAnswer>('search', { query, page_size: 0 });
    expect(expected.articles).toBeGreaterThan(25);
    await search(page, query);
    await heading(page).waitFor();
    expect(await heading(page).textContent()).toBe(
      `${expected.articles.toLocaleString('en-US')} articles match the query`,
    );
    const cards = page.locator('#query-results article.result');
    await expect.poll(() => cards.count()).toBe(25);
    await page.getByRole('button', { name: /^Show the next/ }).click();
    await expect.poll(() => cards.count()).toBe(Math.min(50, expected.articles));
    const keys = await cards.evaluateAll((els) => els.map((e) => e.getAttribute('data-key')));
    expect(new Set(keys).size).toBe(keys.length);
    // The chart's periods are the answer's: as many points as periods from the first to the last with a match.
    expect(await page.locator('[data-testid=query-chart] svg').count()).toBe(1);
    await page.close();
  });

  it('exports every matching article, paged from the API, with the query as the server read it', async () => {
    const page = await live.open();
    const query = 'die OR der';
    const all: { year: string; doc_ix: number }[] = [];
    let first: (SearchAnswer & { next_cursor: string | null }) | undefined;
    for (let cursor: string | null = null; ;) {
      const next: SearchAnswer & { next_cursor: string | null } = await api('search', {
        query,
        page_size: 100,
        ...(cursor === null ? {} : { cursor }),
      });
      first ??= next;
      all.push(...next.page);
      cursor = next.next_cursor;
      if (cursor === null) break;
    }
    expect(all.length).toBe(first!.articles);
    expect(all.length).toBeGreaterThan(100);
    await search(page, query);
    await heading(page).waitFor();
    const [dl] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Matching articles (CSV)' }).click(),
    ]);
    expect(dl.suggestedFilename()).toBe('news-matching-articles-die-or-der.csv');
    const [header, ...rows] = parseCsv(await readFile((await dl.path())!, 'utf8'));
    const col = (n: string) => header!.indexOf(n);
    expect(rows.map((r) => `${r[col('year')]!.replace(/^\t/, '')}/${r[col('doc_ix')]}`)).toEqual(
      all.map((a) => `${a.year}/${a.doc_ix}`),
    );
    expect(new Set(rows.map((r) => `${r[col('export_scope')]} ${r[col('query')]} ${r[col('counts_exact')]}`))).toEqual(
      new Set([`query_articles ${first!.query} yes`]),
    );
    await page
      .locator('.query-export-status', { hasText: `Exported ${all.length.toLocaleString('en-US')} articles.` })
      .waitFor();
    await page.close();
  });

  it("reads NEAR, prefixes and phrases with stray spaces, showing the server's notes", async () => {
    const page = await live.open();
    await search(page, '" Kanalbrücke Zeta " NEAR/5 Häf*');
    await heading(page).waitFor();
    const expected = await api<SearchAnswer>('search', { query: '" Kanalbrücke Zeta " NEAR/5 Häf*', page_size: 0 });
    expect(expected.notes.length).toBeGreaterThan(0);
    expect(await page.locator('.query-notes li').allTextContents()).toEqual(
      expected.notes.map((n) => `Read as typed, except: ${n}.`),
    );
    expect(await page.locator('.query-read code').textContent()).toBe(expected.query);
    expect(await page.locator('.expansion').first().textContent()).toContain('Häf* stood for Häfen');
    await page.close();
  });

  it('marks where a refused query goes wrong and puts the caret there', async () => {
    const page = await live.open();
    const query = 'Kanalbrücke AND (Zeta OR';
    await search(page, query);
    const error = page.locator('#query-results .query-error');
    await error.waitFor();
    expect(await error.getAttribute('role')).toBe('alert');
    expect(await error.locator('p').first().textContent()).toMatch(/^The query could not be read: .+\.$/);
    const refused = await referenceCall(`${live.service.url}/api/v2/search`, { index: 'news', query });
    const position = ((await refused.json()) as { position: number }).position;
    expect(await error.locator('.query-error-at mark').textContent()).toBe([...query][position - 1] ?? ' ');
    expect(
      await page.evaluate(() => [
        document.activeElement?.id,
        (document.activeElement as HTMLInputElement).selectionStart,
      ]),
    ).toEqual(['q', position - 1]);
    expect(await seriousViolations(page)).toEqual([]);
    await page.close();
  });

  it('suggests Ignore capitals when a query finds nothing but would with it', async () => {
    const page = await live.open();
    const query = `"${FIXTURE_PHRASE.toLowerCase()}" AND häfen`;
    expect((await api<SearchAnswer>('search', { query, page_size: 0 })).articles).toBe(0);
    await search(page, query);
    await page.locator('#query-results p.empty', { hasText: 'No article matches' }).waitFor();
    await page.getByRole('button', { name: 'Search with Ignore capitals' }).click();
    await expect.poll(() => heading(page).textContent()).toBe('1 article matches the query');
    expect(await page.locator('#case_insensitive').isChecked()).toBe(true);
    expect(new URL(page.url()).searchParams.get('case')).toBe('insensitive');
    await page.close();
  });

  it('keeps the occurrence view for a plain phrase and trims its stray spaces visibly', async () => {
    const page = await live.open();
    await search(page, `  ${FIXTURE_PHRASE} `);
    await page.locator('#examined-summary', { hasText: 'Examined' }).waitFor();
    const total = (await api<{ total_occurrences: number }>('find', { query: FIXTURE_PHRASE })).total_occurrences;
    expect(await page.locator('#total').textContent()).toBe(String(total));
    expect(await page.locator('#phrase-note').textContent()).toBe(
      `Spaces around the phrase were removed: searched for “${FIXTURE_PHRASE}”.`,
    );
    expect(await page.inputValue('#q')).toBe(FIXTURE_PHRASE);
    expect(await page.locator('#query-results').isHidden()).toBe(true);
    await page.close();
  });

  it('does not scroll sideways at 390 px with results, a refused query and the syntax help open', async () => {
    const page = await live.open('', 390);
    await page.locator('#syntax-help summary').click();
    await search(page, `Kanalbrücke AND ${'Bundesregierungssprecherinnenkonferenz'.repeat(3)} OR (`);
    await page.locator('#query-results .query-error').waitFor();
    let m = await sideways(page);
    expect(m.scrollWidth, m.wide).toBe(m.clientWidth);
    await search(page, 'Kanalbrücke AND (eröffnet OR Brücken)');
    await heading(page).waitFor();
    m = await sideways(page);
    expect(m.scrollWidth, m.wide).toBe(m.clientWidth);
    expect(await seriousViolations(page)).toEqual([]);
    await page.close();
  });
});

describe('a filtered search on a frequent word (issue 29 bug 11)', () => {
  it('lists the first matching articles from one search call, with their exact number, while the scan goes on', async () => {
    const filters = { languages: ['ja', 'de'] };
    const expected = await api<SearchAnswer>('search', {
      query_tree: { type: 'term', text: 'the', phrase: true },
      ...filters,
      page_size: 25,
    });
    expect(expected.articles).toBeGreaterThan(0);
    const page = await live.open();
    const started = Date.now();
    await page.goto(`${live.service.url}/?q=the&languages=ja;de`);
    await page.locator('#article-list article.result').first().waitFor();
    const firstCardMs = Date.now() - started;
    await page.locator('#exact-articles').waitFor();
    expect(await page.locator('#exact-articles').textContent()).toMatch(
      new RegExp(`^Exactly ${expected.articles.toLocaleString('en-US')} articles? match`),
    );
    // The exact count is brute force's: the estimate agrees when it is exact.
    const est = await api<{ mode: string; matching_articles: { value: number } }>('estimate', {
      query: 'the',
      ...filters,
    });
    if (est.mode === 'exact') expect(est.matching_articles.value).toBe(expected.articles);
    // Every article once, the search's first page among them, whatever the scan adds after.
    await page.locator('#examined-summary', { hasText: 'Examined' }).waitFor();
    const keys = await page
      .locator('#article-list article.result')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-key')));
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.slice(0, expected.page.length)).toEqual(expected.page.map((a) => `${a.year}:${a.doc_ix}`));
    console.log(`first card of a filtered "the" after ${firstCardMs} ms (navigation included)`);
    await page.close();
  });
});

describe('a plain phrase without occurrences (issue 29 bug 8)', () => {
  it('offers Ignore capitals with the number it would find, and searches so in one click', async () => {
    const page = await live.open();
    const lower = FIXTURE_PHRASE.toLowerCase();
    const folded = (await api<{ total_occurrences: number }>('find', { query: lower, case: 'insensitive' }))
      .total_occurrences;
    expect(folded).toBeGreaterThan(0);
    await search(page, lower);
    const offer = page.locator('#article-list .suggestion');
    await offer.waitFor();
    expect(await offer.textContent()).toBe(
      `With Ignore capitals, ${folded} occurrences are found. Search with Ignore capitals`,
    );
    await offer.getByRole('button', { name: 'Search with Ignore capitals' }).click();
    await page.locator('#examined-summary', { hasText: 'Examined' }).waitFor();
    expect(await page.locator('#total').textContent()).toBe(String(folded));
    expect(new URL(page.url()).searchParams.get('case')).toBe('insensitive');
    // A phrase that no spelling finds gets no offer.
    await search(page, 'zyxwvut qponmlk');
    await page.locator('p.empty', { hasText: 'No article contains' }).waitFor();
    await page.waitForTimeout(500);
    expect(await offer.count()).toBe(0);
    await page.close();
  });
});
