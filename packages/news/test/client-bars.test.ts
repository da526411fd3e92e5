/**
 * The search page's bars in real Chromium: no serious or critical axe-core violation in the main states (welcome,
 * results with the timeline, compared phrases, the facets open, a filtered search with its filtered timeline, the
 * concordance tab (with the filters' note), the article reader), no sideways scrolling at
 * 390 px and 1280 px in those states, and a first load of at most 100 KB transferred.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { FIXTURE_PHRASE } from './client-support/stack.ts';
import { useLivePages } from './client-support/live-page.ts';
import { seriousViolations, sideways } from './client-support/page-checks.ts';

const live = useLivePages('bars-a', 900);

/**
 * Walks the main states of the page at one width and checks each with `check`. The concordance of `kwicQuery`:
 * "die" fills a page with 1,000 lines (layout); the fixture phrase's few lines have the same markup (axe took
 * 20 s over 1,000 rows).
 */
async function mainStates(
  width: number,
  kwicQuery: string,
  check: (page: Page, state: string) => Promise<void>,
): Promise<void> {
  const page = await live.open('', width);
  await check(page, 'welcome');
  await page.fill('#q', 'die');
  await page.press('#q', 'Enter');
  await page.locator('#examined-summary', { hasText: 'Examined' }).waitFor();
  await page.locator('[data-testid=chart] [role=slider]').waitFor();
  await check(page, 'results with the timeline');
  await page.getByLabel('Compare with').fill('der');
  await page.getByRole('button', { name: 'Add' }).click();
  await page.locator('.legend li', { hasText: '“der”' }).waitFor();
  await page.locator('[data-testid=chart] [role=slider]').focus();
  await page.keyboard.press('End');
  await check(page, 'two phrases compared, a month read by keyboard');
  await page.locator('[data-facet=language]').waitFor();
  for (const more of await page.locator('details.facet-more summary').all()) await more.click();
  await check(page, 'facets open');
  // A facet value filters the search: total, timeline (the estimate's filtered counts) and cards follow.
  await page.locator('[data-facet=language] .facet-value').last().click();
  await page.locator('[data-testid=chart] figcaption', { hasText: 'matching the filters' }).waitFor();
  await page.locator('#examined-summary', { hasText: 'Examined' }).waitFor();
  await page.locator('[data-facet=language] .facet-value[aria-pressed=true]').waitFor();
  await check(page, 'filters set, filtered timeline');
  if (kwicQuery !== 'die') await page.goto(`${live.service.url}/?q=${encodeURIComponent(kwicQuery)}`);
  await page.getByRole('tab', { name: 'Concordance' }).click();
  await page.locator('.kwic-status', { hasText: /^Occurrences/ }).waitFor();
  await check(page, 'concordance');
  await page.locator('.kwic-match a').first().click();
  await page.getByRole('dialog').locator('mark.current').waitFor();
  await check(page, 'article reader');
  await page.close();
}

describe('search page bars', () => {
  it('has no serious or critical axe-core violations in its main states', async () => {
    const found: string[] = [];
    await mainStates(1280, FIXTURE_PHRASE, async (page, state) => {
      found.push(...(await seriousViolations(page)).map((v) => `${state}: ${v}`));
    });
    expect(found).toEqual([]);
  });

  it.each([390, 1280])(
    "does not scroll sideways at %i px in its main states, and the chart's labels stay readable",
    async (width) => {
      await mainStates(width, 'die', async (page, state) => {
        const m = await sideways(page);
        expect(m.scrollWidth, `${state}: ${m.wide}`).toBe(m.clientWidth);
        if (!state.includes('timeline') && !state.includes('compared')) return;
        // The plot is drawn at its own width, so 11-unit labels stay ~11 CSS px on a phone instead of shrinking by half.
        // Polled: the filtered timeline is drawn again when its exact counts arrive, and a label read while the old
        // plot is being replaced measures 0.
        const smallest = async () =>
          Math.min(
            ...(await page
              .locator('[data-testid=chart] text.tick')
              .evaluateAll((ts) => ts.map((t) => t.getBoundingClientRect().height))),
          );
        await expect.poll(smallest, { message: state }).toBeGreaterThanOrEqual(10);
      });
    },
  );

  it('transfers at most 100 KB on first load (page, script, styles, icon)', async () => {
    const page = await live.open('');
    // Earlier pages of this browser cached the year-long assets: empty the cache, then load as a first visit.
    await (await page.context().newCDPSession(page)).send('Network.clearBrowserCache');
    await page.reload({ waitUntil: 'load' });
    const bytes = await page.evaluate(() =>
      (performance.getEntriesByType('navigation') as PerformanceResourceTiming[])
        .concat(performance.getEntriesByType('resource') as PerformanceResourceTiming[])
        .filter((e) => !e.name.includes('/api/'))
        .reduce((sum, e) => sum + e.transferSize, 0),
    );
    expect(bytes).toBeGreaterThan(10_000);
    expect(bytes).toBeLessThanOrEqual(100_000);
    await page.close();
  });
});
