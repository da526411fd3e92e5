/**
 * The research views of the search page in real Chromium against a live worker + gateway: the normalised
 * timeline with compared phrases (toggle, legend, hover and keys, counts-per-month CSV), the concordance tab
 * (paging, sorting, exports, the article reader with the match in view). Set NEWS_SCREENSHOT=1 to refresh
 * docs/timeline.png, docs/timeline-390.png, docs/concordance.png, docs/concordance-loading*.png (all lines
 * loading), docs/concordance-all*.png (all lines in) and docs/article-reader.png.
 */
import { describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Page, Route } from 'playwright-core';
import { parseCsv } from '../src/client/export/index.ts';
import { FIXTURE_PHRASE } from './client-support/stack.ts';
import { useLivePages } from './client-support/live-page.ts';
import { referenceCall } from './client-support/reference-call.ts';
import { seriousViolations, sideways } from './client-support/page-checks.ts';

const live = useLivePages('research-a', 900);
const open = live.open;
const shots = process.env['NEWS_SCREENSHOT'] === '1';
const doc = (name: string) => fileURLToPath(new URL(`../../../docs/${name}`, import.meta.url));

async function api<T>(path: string, body: unknown): Promise<T> {
  const res = await referenceCall(`${live.service.url}${path}`, body);
  expect(res.status).toBe(200);
  return res.json() as Promise<T>;
}

interface Period {
  period: string;
  occurrences: number;
  articles: number;
  text_bytes: number;
}
/** A PNG of the top 600 px from the result tabs down (dense concordance lines make larger files, kept < 200 KB). */
async function shotOf(page: Page, name: string): Promise<void> {
  await page.evaluate(() => document.querySelector('#result-tabs')?.scrollIntoView());
  const width = page.viewportSize()?.width ?? 1280;
  await page.screenshot({ path: doc(name), clip: { x: 0, y: 0, width, height: 600 } });
}

async function checkPage(page: Page): Promise<void> {
  expect(await seriousViolations(page)).toEqual([]);
  const s = await sideways(page);
  expect(s.scrollWidth, s.wide).toBeLessThanOrEqual(s.clientWidth);
}

const timeline = (query: string) => api<{ periods: Period[] }>('/api/v2/timeline', { index: 'news', query });

async function download(page: Page, click: () => Promise<void>): Promise<{ name: string; text: string }> {
  const [dl] = await Promise.all([page.waitForEvent('download'), click()]);
  return { name: dl.suggestedFilename(), text: await readFile((await dl.path())!, 'utf8') };
}

const plot = (page: Page) => page.locator('[data-testid=chart] [role=slider]');
const tableRows = async (page: Page) => {
  await page.locator('[data-testid=chart] tbody').waitFor({ state: 'attached' });
  return page
    .locator('[data-testid=chart] tbody tr')
    .evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent ?? '')));
};

describe('timeline', () => {
  it('shows occurrences per million bytes, per 1,000 articles or raw, zoomed to the months with data', async () => {
    const page = await open('?q=die');
    const periods = (await timeline('die')).periods;
    const withData = periods.filter((p) => p.occurrences > 0).map((p) => p.period);
    const expected = periods.slice(
      periods.findIndex((p) => p.period === withData[0]),
      periods.findIndex((p) => p.period === withData.at(-1)) + 1,
    );
    let rows = await tableRows(page);
    expect(rows.map((r) => r[0])).toEqual(expected.map((p) => p.period));
    const fmt = (v: number) => new Intl.NumberFormat('en', { maximumSignificantDigits: 3 }).format(v);
    expect(rows.map((r) => r[1])).toEqual(expected.map((p) => fmt((p.occurrences * 1e6) / p.text_bytes)));
    await page.getByRole('radio', { name: 'Per 1,000 articles' }).check();
    rows = await tableRows(page);
    expect(rows.map((r) => r[1])).toEqual(expected.map((p) => fmt((p.occurrences * 1000) / p.articles)));
    await page.getByRole('radio', { name: 'Raw counts' }).check();
    rows = await tableRows(page);
    expect(rows.map((r) => r[1])).toEqual(expected.map((p) => p.occurrences.toLocaleString('en')));
    expect(await page.locator('[data-testid=chart] figcaption').textContent()).toBe('Occurrences, per crawl month');
    await page.close();
  });

  it('places each month at its calendar date and shades the months absent from the corpus as gaps (issue 29 bug 2)', async () => {
    const page = await open('?q=die');
    const periods = (await tableRows(page)).map((r) => r[0]!);
    const xs = await page
      .locator('[data-testid=chart] circle.point')
      .evaluateAll((cs) => cs.map((c) => Number(c.getAttribute('cx'))));
    const month = (p: string) => Number(p.slice(0, 4)) * 12 + Number(p.slice(5, 7)) - 1;
    const months = periods.map(month);
    const span = months.at(-1)! - months[0]!;
    const missing = months.slice(1).map((m, i) => m - months[i]! - 1);
    // The fixture corpus has crawl months missing between its first and last ones: the test is not vacuous.
    expect(missing.some((n) => n > 0)).toBe(true);
    periods.forEach((_, i) =>
      expect((xs[i]! - xs[0]!) / (xs[periods.length - 1]! - xs[0]!)).toBeCloseTo((months[i]! - months[0]!) / span, 6),
    );
    const gaps = await page
      .locator('[data-testid=chart] rect.gap')
      .evaluateAll((rs) => rs.map((r) => Number(r.getAttribute('data-missing'))));
    expect(gaps).toEqual(missing.filter((n) => n > 0));
    await page.close();
  });

  it('compares up to five phrases with a legend, refuses a sixth and a repeat, and removes one', async () => {
    const page = await open('?q=die');
    await tableRows(page);
    for (const phrase of ['der', 'und', 'Berlin', 'the']) {
      await page.getByLabel('Compare with').fill(phrase);
      await page.getByRole('button', { name: 'Add' }).click();
      await page.locator('.legend li', { hasText: `“${phrase}”` }).waitFor();
    }
    expect(await page.locator('.legend li').count()).toBe(5);
    expect(await page.locator('[data-testid=chart] path.series').count()).toBe(5);
    // Each line has its own colour and dash, so the lines are told apart without colour too.
    const looks = await page
      .locator('[data-testid=chart] path.series')
      .evaluateAll((ps) => ps.map((p) => `${p.getAttribute('stroke')}|${p.getAttribute('stroke-dasharray')}`));
    expect(new Set(looks).size).toBe(5);
    await page.getByLabel('Compare with').fill('Wien');
    await page.getByRole('button', { name: 'Add' }).click();
    await expect.poll(() => page.locator('.timeline-problem').textContent()).toContain('at most 5 phrases');
    await page.getByRole('button', { name: 'Remove “Berlin” from the chart' }).click();
    expect(await page.locator('.legend li').count()).toBe(4);
    await page.getByLabel('Compare with').fill('der');
    await page.getByRole('button', { name: 'Add' }).click();
    await expect.poll(() => page.locator('.timeline-problem').textContent()).toContain('already in the chart');
    // The header row names every phrase: the table reads like the legend.
    expect(await page.locator('[data-testid=chart] thead th').allTextContents()).toEqual([
      'crawl month',
      'die',
      'der',
      'und',
      'the',
    ]);
    if (shots) {
      await plot(page).focus();
      await page.keyboard.press('End');
      await page.locator('[data-testid=chart]').screenshot({ path: doc('timeline.png') });
      await page.setViewportSize({ width: 390, height: 900 });
      await page.locator('[data-testid=chart]').screenshot({ path: doc('timeline-390.png') });
    }
    await page.close();
  });

  it("tells each month's values on hover and with the arrow keys", async () => {
    const page = await open('?q=die');
    const periods = (await timeline('die')).periods.filter((p) => p.occurrences > 0);
    await tableRows(page);
    await page.getByRole('radio', { name: 'Raw counts' }).check();
    await plot(page).focus();
    await page.keyboard.press('Home');
    const first = periods[0]!;
    await expect
      .poll(() => page.locator('.readout').textContent())
      .toBe(`${first.period}: “die” ${first.occurrences.toLocaleString('en')}`);
    expect(await plot(page).getAttribute('aria-valuetext')).toBe(
      `${first.period}: “die” ${first.occurrences.toLocaleString('en')}`,
    );
    await page.keyboard.press('ArrowRight');
    expect(await plot(page).getAttribute('aria-valuenow')).toBe('1');
    await page.keyboard.press('End');
    expect(await page.locator('.readout').textContent()).toContain(periods.at(-1)!.period);
    const box = (await plot(page).boundingBox())!;
    await page.mouse.move(box.x + box.width - 18, box.y + box.height / 2);
    expect(await page.locator('.readout').textContent()).toContain(periods.at(-1)!.period);
    await page.close();
  });

  it("downloads the counts per month of every phrase as CSV, equal to the API's timeline", async () => {
    const page = await open('?q=die');
    await tableRows(page);
    await page.getByLabel('Compare with').fill('der');
    await page.getByRole('button', { name: 'Add' }).click();
    await page.locator('.legend li', { hasText: '“der”' }).waitFor();
    const csv = await download(page, () => page.getByRole('button', { name: 'Counts per month (CSV)' }).click());
    expect(csv.name).toBe('news-counts-per-month-die.csv');
    expect(csv.text.startsWith('\uFEFF')).toBe(true);
    const [header, ...rows] = parseCsv(csv.text);
    const records = rows.map((r) => Object.fromEntries(header!.map((h, i) => [h, r[i]])));
    for (const phrase of ['die', 'der']) {
      const want = (await timeline(phrase)).periods;
      const got = records.filter((r) => r['phrase'] === phrase);
      expect(
        got.map((r) => [
          r['period']?.replace(/^\t/, ''),
          Number(r['occurrences']),
          Number(r['articles_in_period']),
          Number(r['text_bytes_in_period']),
        ]),
      ).toEqual(want.map((p) => [p.period, p.occurrences, p.articles, p.text_bytes]));
      for (const r of got)
        expect(Number(r['per_million_bytes'])).toBeCloseTo(
          (Number(r['occurrences']) * 1e6) / Number(r['text_bytes_in_period']),
          5,
        );
    }
    expect(records[0]).toMatchObject({
      export_scope: 'counts_per_month',
      release: 'research-a',
      index: 'news',
      matching: 'exact capitals, also inside words',
      filters: '',
      occurrences_sampled: 'no',
    });
    await page.close();
  });
});

interface Line {
  rank: number;
  left: string;
  match: string;
  right: string;
}

describe('timeline in the URL', () => {
  it('restores the measure and compared phrases from a link, and keeps them in the URL as they change', async () => {
    const page = await open('?q=die&measure=raw&compare=der&compare=das');
    await page.locator('.legend li', { hasText: '“das”' }).waitFor();
    expect(await page.locator('.legend-phrase').allTextContents()).toEqual(['“die”', '“der”', '“das”']);
    expect(await page.getByRole('radio', { name: 'Raw counts' }).isChecked()).toBe(true);
    expect(await page.locator('[data-testid=chart] figcaption').textContent()).toBe('Occurrences, per crawl month');
    await page.getByRole('radio', { name: 'Per 1,000 articles' }).check();
    await expect.poll(() => new URL(page.url()).searchParams.get('measure')).toBe('per_1000_articles');
    await page.getByRole('button', { name: 'Remove “der” from the chart' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.getAll('compare')).toEqual(['das']);
    await page.getByLabel('Compare with').fill('und');
    await page.getByRole('button', { name: 'Add' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.getAll('compare')).toEqual(['das', 'und']);
    expect(new URL(page.url()).searchParams.get('q')).toBe('die');
    // A new search keeps the measure and the compared phrases, except the one that became the search.
    await page.fill('#q', 'das');
    await page.press('#q', 'Enter');
    await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe('das');
    expect(new URL(page.url()).searchParams.getAll('compare')).toEqual(['und']);
    expect(new URL(page.url()).searchParams.get('measure')).toBe('per_1000_articles');
    await page.locator('.legend li', { hasText: '“und”' }).waitFor();
    expect(await page.locator('.legend-phrase').allTextContents()).toEqual(['“das”', '“und”']);
    expect(await page.getByRole('radio', { name: 'Per 1,000 articles' }).isChecked()).toBe(true);
    await page.close();
  });
});

/**
 * Whether concordance contexts are in the order the client sorts by (words nearest the match first), decided by the
 * browser's own word segmenter and collation (ICU differs between Node and Chromium).
 */
function inBrowserOrder(page: Page, contexts: readonly string[], side: 'left' | 'right'): Promise<boolean> {
  return page.evaluate(
    ([texts, s]) => {
      const seg = new Intl.Segmenter(undefined, { granularity: 'word' });
      const coll = new Intl.Collator(undefined, { sensitivity: 'base' });
      const words = (t: string) => [...seg.segment(t)].filter((x) => x.isWordLike).map((x) => x.segment);
      const keys = texts.map((t) => (s === 'left' ? words(t).reverse() : words(t)));
      const cmp = (a: string[], b: string[]) => {
        for (let i = 0; i < Math.min(a.length, b.length); i++) {
          const c = coll.compare(a[i]!, b[i]!);
          if (c !== 0) return c;
        }
        return a.length - b.length;
      };
      return keys.every((k, i) => i === 0 || cmp(keys[i - 1]!, k) <= 0);
    },
    [contexts, side] as const,
  );
}

describe('concordance', () => {
  const openTab = async (page: Page) => {
    await page.locator('#examined-summary', { hasText: 'Examined' }).waitFor();
    await page.getByRole('tab', { name: 'Concordance' }).click();
    await page.locator('.kwic-status', { hasText: /^Occurrences/ }).waitFor();
  };
  const lines = (page: Page) =>
    page.locator('.kwic-table tbody tr').evaluateAll((trs) =>
      trs.map((tr) => {
        const [l, m, r] = [...tr.children].map((c) => c.textContent ?? '');
        return { left: l!, match: m!, right: r! };
      }),
    );

  it('lists one line per occurrence, 1,000 a page, with the left context ending at the match', async () => {
    const found = await api<{ total_occurrences: number; shard_ids: string[]; segment_by_shard: [number, number][] }>(
      '/api/v2/find',
      { index: 'news', query: 'die' },
    );
    expect(found.total_occurrences).toBeGreaterThan(2000);
    const page = await open('?q=die');
    await openTab(page);
    let shown = await lines(page);
    expect(shown).toHaveLength(1000);
    expect(shown.every((l) => l.match === 'die')).toBe(true);
    const first = found.segment_by_shard.findIndex(([a, b]) => b > a);
    const want = await api<{ contexts: Line[] }>('/api/v2/contexts', {
      index: 'news',
      query: 'die',
      shard_id: found.shard_ids[first],
      rank_from: found.segment_by_shard[first]![0],
      rank_to: found.segment_by_shard[first]![0] + 3,
      expected_index_version: 'research-a',
    });
    expect(shown.slice(0, 3)).toEqual(want.contexts.map((c) => ({ left: c.left, match: c.match, right: c.right })));
    // Right-aligned: the left context's last character touches the match cell.
    const gap = await page
      .locator('.kwic-table tbody tr')
      .first()
      .evaluate((tr) => {
        const span = tr.querySelector('.kwic-before span')!;
        const range = document.createRange();
        range.selectNodeContents(span);
        const rects = [...range.getClientRects()];
        return tr.querySelector('.kwic-before')!.getBoundingClientRect().right - Math.max(...rects.map((r) => r.right));
      });
    expect(gap).toBeLessThan(8);
    expect(await page.locator('.kwic-status').textContent()).toBe(
      `Occurrences 1–1,000 of ${found.total_occurrences.toLocaleString('en')}, corpus order.`,
    );
    await page.getByRole('button', { name: 'Next 1,000' }).click();
    await page.locator('.kwic-status', { hasText: 'Occurrences 1,001–2,000' }).waitFor();
    shown = await lines(page);
    expect(shown).toHaveLength(1000);
    await page.getByRole('button', { name: 'Previous 1,000' }).click();
    await page.locator('.kwic-status', { hasText: 'Occurrences 1–1,000' }).waitFor();
    await page.close();
  });

  it('sorts the page by the words left or right of the match, and exports it as shown (CSV and JSON)', async () => {
    const page = await open('?q=die');
    await openTab(page);
    const before = await lines(page);
    const key = (l: { left: string; match: string; right: string }) => JSON.stringify(l);
    const inOrder = async (side: 'left' | 'right') =>
      inBrowserOrder(
        page,
        await page.locator(`.kwic-table tbody .kwic-${side === 'left' ? 'before' : 'after'} span`).allTextContents(),
        side,
      );
    await page.getByLabel('Sort this page by').selectOption('left');
    const byLeft = await lines(page);
    expect(byLeft.map(key).sort()).toEqual(before.map(key).sort());
    expect(byLeft).not.toEqual(before);
    expect(await inOrder('left')).toBe(true);
    await page.getByLabel('Sort this page by').selectOption('right');
    const byRight = await lines(page);
    expect(await inOrder('right')).toBe(true);
    expect(byRight.map(key).sort()).toEqual(before.map(key).sort());
    const csv = await download(page, () => page.getByRole('button', { name: 'Concordance (CSV)' }).click());
    expect(csv.name).toBe('news-concordance-die.csv');
    expect(csv.text.startsWith('\uFEFF')).toBe(true);
    const [header, ...rows] = parseCsv(csv.text);
    expect(header).toEqual(
      expect.arrayContaining(['left_context', 'match', 'right_context', 'shard_id', 'rank', 'doc_ix']),
    );
    const col = (n: string) => header!.indexOf(n);
    const unTab = (s: string) => s.replace(/^\t/, '');
    expect(
      rows.map((r) => ({
        left: unTab(r[col('left_context')]!),
        match: r[col('match')],
        right: unTab(r[col('right_context')]!),
      })),
    ).toEqual(byRight);
    const json = JSON.parse(
      (await download(page, () => page.getByRole('button', { name: 'Concordance (JSON)' }).click())).text,
    ) as { scope: string; order: string; lines: Line[] };
    expect(json).toMatchObject({
      scope: 'concordance',
      order: 'right',
      format_version: 3,
      matching: { case: 'sensitive', whole_word: false },
      metadata_filters_applied: false,
    });
    expect(json.lines.map((l) => ({ left: l.left, match: l.match, right: l.right }))).toEqual(byRight);
    await page.close();
  });

  it('loads all lines, sorts, pages and exports them as one list, and keeps that mode in the URL', async () => {
    const found = await api<{ total_occurrences: number; shard_ids: string[]; segment_by_shard: [number, number][] }>(
      '/api/v2/find',
      { index: 'news', query: 'die' },
    );
    const n = found.total_occurrences;
    expect(n).toBeGreaterThan(2000);
    const total = n.toLocaleString('en');
    const page = await open('?q=die');
    await openTab(page);
    await page.getByRole('button', { name: `All ${total} lines` }).click();
    await page
      .locator('.kwic-status', { hasText: `Lines 1–1,000 of all ${total} occurrences, corpus order.` })
      .waitFor();
    expect(await lines(page)).toHaveLength(1000);
    expect(new URL(page.url()).searchParams.get('kwic_all')).toBe('1');

    await page.getByLabel('Sort all lines by').selectOption('right');
    await page.locator('.kwic-status', { hasText: 'words right of the match' }).waitFor();
    const csv = await download(page, () => page.getByRole('button', { name: 'Concordance (CSV)' }).click());
    expect(csv.name).toBe('news-concordance-all-die.csv');
    const [header, ...rows] = parseCsv(csv.text);
    const col = (name: string) => header!.indexOf(name);
    // Every occurrence of the search once: the find answer's ranks, shard by shard.
    const want = found.segment_by_shard.flatMap(([a, b], i) =>
      Array.from({ length: b - a }, (_, k) => `${found.shard_ids[i]}:${a + k}`),
    );
    // A crawl month is written with a leading tab so spreadsheets keep it as text.
    expect(rows.map((r) => `${r[col('shard_id')]!.replace(/^\t/, '')}:${r[col('rank')]}`).sort()).toEqual(want.sort());
    expect(new Set(rows.map((r) => r[col('export_scope')]))).toEqual(new Set(['concordance_all']));
    // Sorted as one list by the browser's own segmenter and collation (ICU differs between Node and Chromium).
    const rights = rows.map((r) => r[col('right_context')]!.replace(/^\t/, ''));
    const sortedInBrowser = await inBrowserOrder(page, rights, 'right');
    expect(sortedInBrowser).toBe(true);
    // The page shows the first 1,000 of that list, the next page the next 1,000.
    expect((await lines(page)).map((l) => l.right)).toEqual(rights.slice(0, 1000));
    await page.getByRole('button', { name: 'Next 1,000' }).click();
    await page.locator('.kwic-status', { hasText: `Lines 1,001–2,000 of all ${total}` }).waitFor();
    expect((await lines(page)).map((l) => l.right)).toEqual(rights.slice(1000, 2000));

    // A link to this view loads all lines again, sorted, at that page.
    const linked = await open(new URL(page.url()).search);
    await linked.getByRole('tab', { name: 'Concordance' }).waitFor();
    await linked.locator('.kwic-status', { hasText: `Lines 1,001–2,000 of all ${total} occurrences` }).waitFor();
    expect((await lines(linked)).map((l) => l.right)).toEqual(rights.slice(1000, 2000));
    await linked.close();

    await page.getByRole('button', { name: 'One page at a time' }).click();
    await page.locator('.kwic-status', { hasText: 'Occurrences 1–1,000' }).waitFor();
    expect(new URL(page.url()).searchParams.get('kwic_all')).toBeNull();
    await page.close();
  });

  it('passes axe and fits 390 px while all lines load (progress, Stop) and once they are in', async () => {
    const total = (
      await api<{ total_occurrences: number }>('/api/v2/find', { index: 'news', query: 'die' })
    ).total_occurrences.toLocaleString('en');
    for (const width of shots ? [390, 1280] : [390]) {
      const page = await open('?q=die', width);
      await openTab(page);
      // The whole concordance's contexts requests wait until released, so the progress state holds still.
      const held: Route[] = [];
      let holding = true;
      await page.route('**/api/v2/contexts', (route) => {
        if (holding) held.push(route);
        else void route.continue();
      });
      await page.getByRole('button', { name: `All ${total} lines` }).click();
      await page.locator('.kwic-status', { hasText: `Loading all lines: 0 of ${total}…` }).waitFor();
      expect(await page.getByRole('button', { name: 'Stop' }).isVisible()).toBe(true);
      await checkPage(page);
      if (shots) await shotOf(page, `concordance-loading${width === 390 ? '-390' : ''}.png`);
      holding = false;
      for (const r of held.splice(0)) await r.continue();
      await page.locator('.kwic-status', { hasText: `Lines 1–1,000 of all ${total} occurrences` }).waitFor();
      expect(await page.getByRole('button', { name: 'One page at a time' }).isVisible()).toBe(true);
      expect(await page.getByLabel('Sort all lines by').isVisible()).toBe(true);
      await checkPage(page);
      if (shots) await shotOf(page, `concordance-all${width === 390 ? '-390' : ''}.png`);
      await page.close();
    }
  });

  it("opens each line's article with that match marked and scrolled into view, and back", async () => {
    const page = await open(`?q=${encodeURIComponent(FIXTURE_PHRASE)}`);
    await openTab(page);
    expect(await page.locator('.kwic-table tbody tr').count()).toBeGreaterThanOrEqual(4);
    // The huge article (over the full-text limit) shows a window; the match is still the current one.
    const link = page.locator('.kwic-match a').nth(3);
    await link.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await dialog.locator('mark.current').waitFor();
    expect(await dialog.locator('mark.current').textContent()).toBe(FIXTURE_PHRASE);
    expect(new URL(page.url()).hash).toMatch(/^#occurrence=/);
    const inView = () =>
      dialog.locator('mark.current').evaluate((m) => {
        const r = m.getBoundingClientRect();
        return r.top >= 0 && r.bottom <= innerHeight;
      });
    await expect.poll(inView).toBe(true);
    if (shots) await page.screenshot({ path: doc('article-reader.png') });
    // A shared link with the occurrence opens the same article.
    const url = page.url();
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    // The close event (which drops the hash and returns focus) follows the dialog's closing in a task of its own.
    await expect.poll(() => new URL(page.url()).hash).toBe('');
    await expect.poll(() => page.evaluate(() => document.activeElement?.closest('.kwic-match') !== null)).toBe(true);
    const again = await open(new URL(url).search + new URL(url).hash);
    await again.getByRole('dialog').locator('mark.current').waitFor();
    await expect
      .poll(() =>
        again
          .getByRole('dialog')
          .locator('mark.current')
          .evaluate((m) => m.getBoundingClientRect().bottom <= innerHeight),
      )
      .toBe(true);
    await again.close();
    if (shots) {
      const p = await open('?q=die', 1280);
      await openTab(p);
      await p.getByLabel('Sort this page by').selectOption('left');
      await p.setViewportSize({ width: 1280, height: 1100 });
      await p.locator('#result-tabs').scrollIntoViewIfNeeded();
      await p.screenshot({ path: doc('concordance.png') });
      await p.close();
    }
    await page.close();
  });
});

interface Estimate {
  mode: string;
  facets: Record<string, { value: string; occurrences: number }[]>;
  periods: { period: string; occurrences: number }[];
}

describe('matching options and filters in every view', () => {
  it("shows a case-insensitive search's occurrences alike in the timeline, concordance, reader and exports", async () => {
    const wanted = (
      await api<{ periods: Period[] }>('/api/v2/timeline', { index: 'news', query: 'DIE', case: 'insensitive' })
    ).periods;
    expect(wanted.reduce((n, p) => n + p.occurrences, 0)).toBeGreaterThan(
      (await timeline('DIE')).periods.reduce((n, p) => n + p.occurrences, 0),
    );
    const page = await open('?q=DIE&case=insensitive');
    await page.locator('#total-note .peak').waitFor();
    await page.getByRole('radio', { name: 'Raw counts' }).check();
    const rows = await tableRows(page);
    const shownPeriods = new Map(rows.map((r) => [r[0], r[1]]));
    for (const p of wanted.filter((x) => x.occurrences > 0))
      expect(shownPeriods.get(p.period)).toBe(p.occurrences.toLocaleString('en'));
    await page.locator('#examined-summary', { hasText: 'Examined' }).waitFor();
    // The matching-articles export records the options and its first matches are any capitalisation of the phrase.
    const csv = await download(page, () => page.getByRole('button', { name: 'Matching articles (CSV)' }).click());
    const [header, ...records] = parseCsv(csv.text);
    const col = (n: string) => header!.indexOf(n);
    expect(records[0]![col('matching')]).toBe('any capitalisation, also inside words');
    const firstMatches = records.map((r) => r[col('first_match')]!);
    expect(firstMatches.length).toBeGreaterThan(0);
    expect(firstMatches.every((m) => m.toLowerCase() === 'die')).toBe(true);
    // The concordance holds the same spellings, and the reader marks the line's match.
    await page.getByRole('tab', { name: 'Concordance' }).click();
    await page.locator('.kwic-status', { hasText: /^Occurrences/ }).waitFor();
    const matches = await page.locator('.kwic-match a').allTextContents();
    expect(matches.every((m) => m.toLowerCase() === 'die')).toBe(true);
    expect(new Set(matches).size).toBeGreaterThan(1);
    const other = page.locator('.kwic-match a').filter({ hasNotText: /^die$/ }).first();
    const spelling = await other.textContent();
    await other.click();
    const mark = page.getByRole('dialog').locator('mark.current');
    await mark.waitFor();
    expect(await mark.textContent()).toBe(spelling);
    await page.keyboard.press('Escape');
    const kwic = JSON.parse(
      (await download(page, () => page.getByRole('button', { name: 'Concordance (JSON)' }).click())).text,
    ) as { matching: unknown };
    expect(kwic.matching).toEqual({ case: 'insensitive', whole_word: false });
    await page.close();
  });

  it("shows a whole-word search's occurrences alike in the timeline, concordance and exports", async () => {
    const wanted = (
      await api<{ periods: Period[] }>('/api/v2/timeline', { index: 'news', query: 'die', whole_word: true })
    ).periods;
    const page = await open('?q=die&whole_word=1');
    await page.getByRole('radio', { name: 'Raw counts' }).check();
    const shownPeriods = new Map((await tableRows(page)).map((r) => [r[0], r[1]]));
    for (const p of wanted.filter((x) => x.occurrences > 0))
      expect(shownPeriods.get(p.period)).toBe(p.occurrences.toLocaleString('en'));
    await page.locator('#examined-summary', { hasText: 'Examined' }).waitFor();
    // The busiest-month line counts whole-word matches (the estimate's periods), not find's candidate intervals.
    const active = wanted.filter((x) => x.occurrences > 0);
    const busiest = active.reduce((a, b) => (b.occurrences > a.occurrences ? b : a));
    await expect
      .poll(() => page.locator('#total-note .peak').textContent())
      .toBe(
        `Found in ${active.length} crawl ${active.length === 1 ? 'month' : 'months'}; most in ${busiest.period} (${busiest.occurrences.toLocaleString('en')}).`,
      );
    const csv = await download(page, () => page.getByRole('button', { name: 'Matching articles (CSV)' }).click());
    const [header, ...records] = parseCsv(csv.text);
    expect(records[0]![header!.indexOf('matching')]).toBe('exact capitals, whole words only');
    await page.getByRole('tab', { name: 'Concordance' }).click();
    await page.locator('.kwic-status', { hasText: /whole-word lines?,/ }).waitFor();
    await page.locator('.kwic-note', { hasText: 'Whole words only' }).waitFor();
    // Every line is a whole word: no letter or digit touches the match on either side.
    const lines = await page
      .locator('.kwic-table tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent ?? '')));
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.every(([l, m, r]) => m === 'die' && !/[\p{L}\p{N}]$/u.test(l!) && !/^[\p{L}\p{N}]/u.test(r!))).toBe(
      true,
    );
    await page.close();
  });

  it("draws a filtered search's timeline from the estimate's matching occurrences per month, labelled so", async () => {
    const est = await api<Estimate>('/api/v2/estimate', { index: 'news', query: 'die' });
    const language = est.facets['language']!.at(-1)!.value;
    const filtered = await api<Estimate>('/api/v2/estimate', { index: 'news', query: 'die', languages: [language] });
    const all = (await timeline('die')).periods;
    const page = await open(`?q=die&languages=${encodeURIComponent(language)}`);
    const caption = page.locator('[data-testid=chart] figcaption');
    await expect.poll(() => caption.textContent()).toContain('in articles matching the filters');
    await page.getByRole('radio', { name: 'Per 1,000 articles' }).check();
    const rows = await tableRows(page);
    const fmt = (v: number) => new Intl.NumberFormat('en', { maximumSignificantDigits: 3 }).format(v);
    const count = new Map(filtered.periods.map((p) => [p.period, p.occurrences]));
    expect(rows.length).toBeGreaterThan(0);
    for (const [period, value] of rows) {
      const p = all.find((x) => x.period === period)!;
      expect(value).toBe(fmt(((count.get(period!) ?? 0) * 1000) / p.articles));
    }
    // The counts-per-month CSV names the filters; its occurrences are the filtered ones.
    const csv = await download(page, () => page.getByRole('button', { name: 'Counts per month (CSV)' }).click());
    const [header, ...records] = parseCsv(csv.text);
    const col = (n: string) => header!.indexOf(n);
    expect(records[0]![col('filters')]).toBe(`languages=${language}`);
    expect(records.map((r) => [r[col('period')]!.replace(/^\t/, ''), Number(r[col('occurrences')])])).toEqual(
      all.map((p) => [p.period, count.get(p.period) ?? 0]),
    );
    // The concordance says that the filters do not narrow its lines.
    await page.getByRole('tab', { name: 'Concordance' }).click();
    await page.locator('.kwic-note', { hasText: 'metadata filters' }).waitFor();
    await page.close();
  });
});
