/**
 * The concordance's layout in real Chromium against a live worker + gateway (issue 29 bugs 1 and 3): the match is
 * never cut, the contexts give way, at 1280 and 390 px, for a long German compound, a two-word phrase and Arabic;
 * a right-to-left line reads context before → match → context after from right to left, each cell isolated.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { LONG_WORD, RTL_WORD } from './client-support/stack.ts';
import { useLivePages } from './client-support/live-page.ts';

const live = useLivePages('concordance-a', 900);

async function concordance(query: string, width: number): Promise<Page> {
  const page = await live.open(`?q=${encodeURIComponent(query)}`, width);
  await page.getByRole('tab', { name: /Concordance/ }).click();
  await page.locator('.kwic-status', { hasText: /^Occurrences/ }).waitFor();
  return page;
}

/** Per line: whether the match's text fits its cell, and the cells' and texts' horizontal extents. */
const geometry = (page: Page) =>
  page.locator('.kwic-table tbody tr').evaluateAll((trs) =>
    trs.map((tr) => {
      const cell = tr.querySelector('.kwic-match')!;
      const link = cell.querySelector('a')!;
      const box = (e: Element) => {
        const r = e.getBoundingClientRect();
        return { left: r.left, right: r.right };
      };
      return {
        dir: tr.getAttribute('data-dir'),
        match: link.textContent,
        cellDir: [...tr.children].map((c) => c.getAttribute('dir')),
        whole:
          cell.scrollWidth <= cell.clientWidth + 1 &&
          link.getBoundingClientRect().right <= cell.getBoundingClientRect().right + 1,
        before: box(tr.querySelector('.kwic-before')!),
        cell: box(cell),
        after: box(tr.querySelector('.kwic-after')!),
      };
    }),
  );

describe('concordance layout', () => {
  for (const width of [1280, 390]) {
    it(`shows the whole match and cuts the contexts at ${width} px: a long compound, a phrase and Arabic`, async () => {
      for (const query of [LONG_WORD, 'Kanalbrücke Zeta', RTL_WORD]) {
        const page = await concordance(query, width);
        const lines = await geometry(page);
        expect(lines.length).toBeGreaterThan(0);
        for (const l of lines) {
          expect(l.match).toBe(query);
          expect(l.whole).toBe(true);
        }
        // No sideways scroll: the contexts gave way.
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
        await page.close();
      }
    });
  }

  it('lays a right-to-left line out right to left, each column bidi-isolated', async () => {
    const page = await concordance(RTL_WORD, 1280);
    const [line] = await geometry(page);
    expect(line!.dir).toBe('rtl');
    expect(line!.cellDir).toEqual(['rtl', 'rtl', 'rtl']);
    // The context before the match sits to its right, the context after to its left.
    expect(line!.before.left).toBeGreaterThanOrEqual(line!.cell.right - 1);
    expect(line!.after.right).toBeLessThanOrEqual(line!.cell.left + 1);
    const ltr = await concordance(LONG_WORD, 1280);
    const [german] = await geometry(ltr);
    expect(german!.dir).toBe('ltr');
    expect(german!.before.right).toBeLessThanOrEqual(german!.cell.left + 1);
    await page.close();
    await ltr.close();
  });
});
