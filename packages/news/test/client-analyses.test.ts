/**
 * The word analyses on the search page in real Chromium against a live worker + gateway (issue 29): the collocations
 * table (sort by each score, window sides, bars, a collocate opening its example occurrence, CSV/XLSX export),
 * "what follows / what precedes" (ranked continuations with shares; one extends the phrase) and the key words of two
 * ranges of crawl periods. The tab and its settings live in the URL. Set NEWS_SCREENSHOT=1 to refresh
 * docs/collocations*.png, docs/continuations*.png and docs/keywords*.png (keywords-narrowed*.png: one outlet's
 * articles with the phrase against the rest).
 */
import { describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { parseCsv } from '../src/client/export/index.ts';
import { buildRelease } from '../src/release/index.ts';
import { useLivePages } from './client-support/live-page.ts';
import { startService } from './client-support/stack.ts';
import { seriousViolations, sideways } from './client-support/page-checks.ts';
import { referenceCall } from './client-support/reference-call.ts';

const live = useLivePages('analyses-a', 900);
const shots = process.env['NEWS_SCREENSHOT'] === '1';
const doc = (name: string) => fileURLToPath(new URL(`../../../docs/${name}`, import.meta.url));

async function api<T>(path: string, body: Record<string, unknown>): Promise<T> {
  const res = await referenceCall(`${live.service.url}/api/v2/${path}`, { index: 'news', ...body });
  expect(res.status).toBe(200);
  return res.json() as Promise<T>;
}

interface Collocations {
  collocates: { word: string; window_frequency: number; log_dice: number; example: { shard_id: string } }[];
}
interface Ngrams {
  continuations: { words: string[]; count: number; share: number }[];
}

async function download(page: Page, click: () => Promise<void>): Promise<{ name: string; bytes: Buffer }> {
  const [dl] = await Promise.all([page.waitForEvent('download'), click()]);
  return { name: dl.suggestedFilename(), bytes: await readFile((await dl.path())!) };
}

const collocateWords = (page: Page) =>
  page.locator('[data-testid=collocations] tbody th').evaluateAll((ths) => ths.map((t) => t.textContent));

/** A viewport-sized PNG from `selector`'s top (small files; the views' tables run long). */
async function shot(page: Page, selector: string, name: string): Promise<void> {
  await page.evaluate((sel) => document.querySelector(sel)?.scrollIntoView(), selector);
  await page.screenshot({ path: doc(name) });
}

async function checkPage(page: Page): Promise<void> {
  expect(await seriousViolations(page)).toEqual([]);
  const s = await sideways(page);
  expect(s.scrollWidth, s.wide).toBeLessThanOrEqual(s.clientWidth);
}

describe('collocations view', () => {
  it('lists the collocates as the API ranks them, re-sorts by each score, and keeps tab and sort in the URL', async () => {
    const page = await live.open('?q=Trump');
    await page.getByRole('tab', { name: 'Collocations' }).click();
    const status = page.locator('[data-testid=collocations] .analysis-status');
    await status.filter({ hasText: /collocates within/ }).waitFor();
    const byDice = await api<Collocations>('collocations', { query: 'Trump', sort_by: 'log_dice', limit: 50 });
    expect(byDice.collocates.length).toBeGreaterThan(5);
    expect(await collocateWords(page)).toEqual(byDice.collocates.map((c) => c.word));
    expect(page.url()).toContain('tab=collocations');
    // Each row has a bar; the most frequent collocate's bar is full length.
    expect(await page.locator('[data-testid=collocations] tbody svg.bar').count()).toBe(byDice.collocates.length);

    await page.getByRole('button', { name: 'MI' }).click();
    await status.filter({ hasText: /by MI/ }).waitFor();
    const byMi = await api<Collocations>('collocations', { query: 'Trump', sort_by: 'mi', limit: 50 });
    expect(await collocateWords(page)).toEqual(byMi.collocates.map((c) => c.word));
    expect(await page.locator('th[aria-sort=descending]').textContent()).toContain('MI');
    expect(new URL(page.url()).searchParams.get('coll_sort')).toBe('mi');

    await page.selectOption('#coll-window', 'left');
    await status.filter({ hasText: /5 words before/ }).waitFor();
    const left = await api<Collocations>('collocations', {
      query: 'Trump',
      sort_by: 'mi',
      left: 5,
      right: 0,
      limit: 50,
    });
    expect(await collocateWords(page)).toEqual(left.collocates.map((c) => c.word));
    await checkPage(page);

    // A shared link opens the same tab, sort and window.
    const again = await live.open(new URL(page.url()).search);
    await again.locator('[data-testid=collocations] .analysis-status', { hasText: /by MI/ }).waitFor();
    expect(await again.locator('#tab-collocations').getAttribute('aria-selected')).toBe('true');
    expect(await again.inputValue('#coll-window')).toBe('left');
    expect(await collocateWords(again)).toEqual(left.collocates.map((c) => c.word));
    await again.close();
    await page.close();
  }, 120_000);

  it('opens a collocate’s example occurrence in the reader and exports the table as shown', async () => {
    const page = await live.open('?q=Trump&tab=collocations');
    await page.locator('[data-testid=collocations] tbody a').first().waitFor();
    const expected = await api<Collocations>('collocations', { query: 'Trump', sort_by: 'log_dice', limit: 50 });
    await page.locator('[data-testid=collocations] tbody a').first().click();
    const reader = page.locator('dialog.reader');
    await reader.locator('mark').first().waitFor();
    expect(page.url()).toContain(`#occurrence=${encodeURIComponent(expected.collocates[0]!.example.shard_id)}`);
    await page.keyboard.press('Escape');
    await reader.waitFor({ state: 'detached' });

    const csv = await download(page, () => page.getByRole('button', { name: 'Collocations (CSV)' }).click());
    expect(csv.name).toBe('news-collocations-trump.csv');
    const rows = parseCsv(csv.bytes.toString('utf8'));
    const header = rows[0]!;
    const col = (name: string) => header.indexOf(name);
    expect(rows.slice(1).map((r) => r[col('word')])).toEqual(expected.collocates.map((c) => c.word));
    expect(rows.slice(1).map((r) => Number(r[col('log_dice')]))).toEqual(expected.collocates.map((c) => c.log_dice));
    expect(rows[1]![col('sort_by')]).toBe('log_dice');
    const xlsx = await download(page, () => page.getByRole('button', { name: 'Collocations (XLSX)' }).click());
    expect(xlsx.name).toBe('news-collocations-trump.xlsx');
    expect(xlsx.bytes.subarray(0, 2).toString('latin1')).toBe('PK');
    await page.close();
  });

  it('fits 390 px without sideways scrolling and passes axe', async () => {
    const page = await live.open('?q=Trump&tab=collocations', 390);
    await page.locator('[data-testid=collocations] tbody tr').first().waitFor();
    await checkPage(page);
    if (shots) await shot(page, '#results', 'collocations-390.png');
    await page.close();
    if (shots) {
      const wide = await live.open('?q=Trump&tab=collocations');
      await wide.locator('[data-testid=collocations] tbody tr').first().waitFor();
      await shot(wide, '#results', 'collocations.png');
      await wide.close();
    }
  });
});

describe('what follows / what precedes', () => {
  it('ranks the continuations with their shares and extends the phrase with one click', async () => {
    const page = await live.open('?q=die&tab=continuations');
    const items = page.locator('[data-testid=continuations] li');
    await items.first().waitFor();
    const expected = await api<Ngrams>('ngrams', { query: 'die', direction: 'right', words: 1, limit: 50 });
    expect(await items.locator('button').allTextContents()).toEqual(
      expected.continuations.map((c) => `die ${c.words.join(' ')}`),
    );
    const first = expected.continuations[0]!;
    expect(await items.first().locator('.continuation-share').textContent()).toContain(
      `${(first.share * 100).toFixed(1)}%`,
    );
    await checkPage(page);

    await page.selectOption('#next-direction', 'left');
    await page.locator('[data-testid=continuations] .analysis-status', { hasText: /before/ }).waitFor();
    const before = await api<Ngrams>('ngrams', { query: 'die', direction: 'left', words: 1, limit: 50 });
    expect(await items.locator('button').allTextContents()).toEqual(
      before.continuations.map((c) => `${c.words.join(' ')} die`),
    );
    expect(new URL(page.url()).searchParams.get('next_dir')).toBe('left');

    // Choosing one searches for the longer phrase, on the same tab.
    const phrase = `${before.continuations[0]!.words.join(' ')} die`;
    await items.first().locator('button').click();
    await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe(phrase);
    expect(await page.inputValue('#q')).toBe(phrase);
    expect(await page.locator('#tab-continuations').getAttribute('aria-selected')).toBe('true');
    const longer = await api<Ngrams>('ngrams', { query: phrase, direction: 'left', words: 1, limit: 50 });
    await expect
      .poll(() => items.locator('button').allTextContents())
      .toEqual(longer.continuations.map((c) => `${c.words.join(' ')} ${phrase}`));
    await page.close();
  });

  it('fits 390 px without sideways scrolling and passes axe', async () => {
    const page = await live.open('?q=die&tab=continuations&next_words=2', 390);
    await page.locator('[data-testid=continuations] li').first().waitFor();
    expect(await page.inputValue('#next-words')).toBe('2');
    await checkPage(page);
    if (shots) await shot(page, '#results', 'continuations-390.png');
    await page.close();
    if (shots) {
      const wide = await live.open('?q=die&tab=continuations');
      await wide.locator('[data-testid=continuations] li').first().waitFor();
      await shot(wide, '#results', 'continuations.png');
      await wide.close();
    }
  });
});

interface Keyness {
  a_over_b: { word: string; count_a: number; count_b: number }[];
  b_over_a: { word: string }[];
}

describe('key words', () => {
  it('compares two ranges of crawl periods, lists the key words of each side, keeps them in the URL and exports', async () => {
    const page = await live.open('?q=Trump&tab=keywords');
    const info = (await (await fetch(`${live.service.url}/api/v2/info`)).json()) as { shards: { shard_id: string }[] };
    const periods = [...new Set(info.shards.map((s) => s.shard_id.split('.')[0]!))].sort();
    expect(periods.length).toBeGreaterThan(2);
    await page.locator('#kw-a-from option').first().waitFor({ state: 'attached' });
    // The newest period against the ones before it, to start with.
    expect(await page.inputValue('#kw-a-from')).toBe(periods.at(-1));
    expect(await page.inputValue('#kw-b-to')).toBe(periods.at(-2));
    await page.selectOption('#kw-a-from', periods.at(-2)!);
    await page.selectOption('#kw-b-to', periods.at(-3)!);
    await page.getByRole('button', { name: 'Compare' }).click();
    const sideA = page.locator('[data-side=a] tbody th');
    await sideA.first().waitFor();
    const expected = await api<Keyness>('keyness', {
      a: { periods: periods.slice(-2) },
      b: { periods: periods.slice(0, -2) },
      limit: 50,
    });
    expect(await sideA.allTextContents()).toEqual(expected.a_over_b.map((w) => w.word));
    expect(await page.locator('[data-side=b] tbody th').allTextContents()).toEqual(
      expected.b_over_a.map((w) => w.word),
    );
    const firstRow = await page.locator('[data-side=a] tbody tr').first().locator('td').allTextContents();
    expect(firstRow.slice(0, 2)).toEqual([
      expected.a_over_b[0]!.count_a.toLocaleString('en'),
      expected.a_over_b[0]!.count_b.toLocaleString('en'),
    ]);
    const url = new URL(page.url());
    expect(url.searchParams.get('kw_a')).toBe(`${periods.at(-2)}..${periods.at(-1)}`);
    expect(url.searchParams.get('kw_b')).toBe(`${periods[0]}..${periods.at(-3)}`);

    const csv = await download(page, () => page.getByRole('button', { name: 'Key words (CSV)' }).click());
    const rows = parseCsv(csv.bytes.toString('utf8'));
    const side = rows[0]!.indexOf('side');
    const word = rows[0]!.indexOf('word');
    expect(rows.filter((r) => r[side] === 'key_in_a').map((r) => r[word])).toEqual(
      expected.a_over_b.map((w) => w.word),
    );
    await checkPage(page);

    // A shared link compares the same ranges at once, and fits a phone.
    const phone = await live.open(url.search, 390);
    await phone.locator('[data-side=a] tbody th').first().waitFor();
    expect(await phone.locator('[data-side=a] tbody th').allTextContents()).toEqual(
      expected.a_over_b.map((w) => w.word),
    );
    await checkPage(phone);
    if (shots) await shot(phone, '#results', 'keywords-390.png');
    if (shots) await shot(page, '#results', 'keywords.png');
    await phone.close();
    await page.close();
  }, 120_000);
});

describe('key words of narrowed subcorpora', () => {
  it("compares one outlet's articles with the phrase against the rest of their periods, as the API does, from a link too", async () => {
    const info = (await (await fetch(`${live.service.url}/api/v2/info`)).json()) as { shards: { shard_id: string }[] };
    const periods = [...new Set(info.shards.map((s) => s.shard_id.split('.')[0]!))].sort();
    const est = await api<{ facets: Record<string, { value: string; count: number }[]> }>('estimate', {
      query: 'Trump',
    });
    const outlet = est.facets['source']![0]!.value;
    const page = await live.open('?q=Trump&tab=keywords');
    await page.locator('#kw-a-from option').first().waitFor({ state: 'attached' });
    await page.selectOption('#kw-a-from', periods[0]!);
    await page.fill('#kw-a-source', outlet);
    await page.getByLabel('only articles with “Trump”').check();
    await page.getByLabel("the rest of A's periods instead").check();
    expect(await page.locator('#kw-b-source').isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Compare' }).click();
    const sideA = page.locator('[data-side=a] tbody th');
    await sideA.first().waitFor();
    const expected = await api<Keyness>('keyness', {
      a: { periods, sources: [outlet], query: '"Trump"', query_case: 'sensitive', whole_word: false },
      b: 'rest',
      limit: 50,
    });
    expect(expected.a_over_b.length).toBeGreaterThan(0);
    expect(await sideA.allTextContents()).toEqual(expected.a_over_b.map((w) => w.word));
    expect(await page.locator('[data-side=b] tbody th').allTextContents()).toEqual(
      expected.b_over_a.map((w) => w.word),
    );
    expect(await page.locator('[data-side=a] h3').textContent()).toBe(
      `Key words of A (${periods[0]} to ${periods.at(-1)}, ${outlet}, articles with “Trump”)`,
    );
    const url = new URL(page.url());
    expect([...['kw_a', 'kw_a_src', 'kw_a_q', 'kw_b'].map((k) => url.searchParams.get(k))]).toEqual([
      `${periods[0]}..${periods.at(-1)}`,
      outlet,
      '1',
      'rest',
    ]);
    const csv = await download(page, () => page.getByRole('button', { name: 'Key words (CSV)' }).click());
    const rows = parseCsv(csv.bytes.toString('utf8'));
    expect(rows[1]![rows[0]!.indexOf('subcorpus_a')]).toBe(
      `${periods[0]}..${periods.at(-1)}; source=${outlet}; query="Trump"`,
    );
    expect(rows[1]![rows[0]!.indexOf('subcorpus_b')]).toBe('rest');

    const linked = await live.open(url.search, 390);
    await linked.locator('[data-side=a] tbody th').first().waitFor();
    expect(await linked.locator('[data-side=a] tbody th').allTextContents()).toEqual(
      expected.a_over_b.map((w) => w.word),
    );
    expect(await linked.getByLabel("the rest of A's periods instead").isChecked()).toBe(true);
    await checkPage(linked);
    if (shots) await shot(linked, '#result-tabs', 'keywords-narrowed-390.png');
    if (shots) await shot(page, '#result-tabs', 'keywords-narrowed.png');
    await linked.close();
    await page.close();
  }, 120_000);

  it('says why a comparison cannot run: the rest of an A that is not narrowed', async () => {
    const page = await live.open('?q=Trump&tab=keywords');
    await page.locator('#kw-a-from option').first().waitFor({ state: 'attached' });
    await page.getByLabel("the rest of A's periods instead").check();
    await page.getByRole('button', { name: 'Compare' }).click();
    await page.locator('.analysis-status', { hasText: "The rest of A's periods is empty" }).waitFor();
    expect(await page.locator('[data-side=a]').count()).toBe(0);
    await page.close();
  });
});

interface TimelinePeriod {
  period: string;
  occurrences: number;
  per_million_words: number | null;
  share_of_articles: number | null;
}

describe('timeline measures', () => {
  it('shows per million words and the share of articles, smooths with a stated moving average, keeps both in the URL', async () => {
    const page = await live.open('?q=Trump');
    const t = await api<{ periods: TimelinePeriod[] }>('timeline', { query: 'Trump', share: true });
    const withData = t.periods.filter((p) => p.occurrences > 0).map((p) => p.period);
    const shown = t.periods.slice(
      t.periods.findIndex((p) => p.period === withData[0]),
      t.periods.findIndex((p) => p.period === withData.at(-1)) + 1,
    );
    const fmt = (v: number) => new Intl.NumberFormat('en', { maximumSignificantDigits: 3 }).format(v);
    const rows = () =>
      page
        .locator('[data-testid=chart] tbody tr')
        .evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent ?? '')));
    await page.locator('[data-testid=chart] tbody').waitFor({ state: 'attached' });

    await page.getByRole('radio', { name: 'Per million words' }).check();
    expect((await rows()).map((r) => r[1])).toEqual(shown.map((p) => fmt(p.per_million_words!)));
    expect(await page.locator('[data-testid=chart] figcaption').textContent()).toMatch(
      /^Occurrences per million words/,
    );
    // The share is counted when the chart first shows it (one more request per phrase), then drawn.
    await page.getByRole('radio', { name: 'Share of articles' }).check();
    await expect
      .poll(async () => (await rows()).map((r) => r[1]))
      .toEqual(shown.map((p) => (p.share_of_articles === null ? 'not counted' : fmt(p.share_of_articles * 100))));
    expect(new URL(page.url()).searchParams.get('measure')).toBe('share_of_articles');

    await page.getByLabel('Smoothing').selectOption('3');
    expect(await page.locator('[data-testid=chart] figcaption').textContent()).toContain(
      'moving average over 3 periods',
    );
    const values = shown.map((p) => p.share_of_articles! * 100);
    const smoothed = values.map((_, i) => {
      const w = values.slice(Math.max(0, i - 2), i + 1);
      return fmt(w.reduce((a, b) => a + b, 0) / w.length);
    });
    expect((await rows()).map((r) => r[1])).toEqual(smoothed);
    expect(new URL(page.url()).searchParams.get('smooth')).toBe('3');
    await checkPage(page);
    if (shots) await shot(page, '[data-testid=chart]', 'timeline-measures.png');
    const phone = await live.open(new URL(page.url()).search, 390);
    await phone.locator('[data-testid=chart] tbody').waitFor({ state: 'attached' });
    expect(await phone.getByRole('radio', { name: 'Share of articles' }).isChecked()).toBe(true);
    // A link to the share loads it with the first timeline request.
    await expect
      .poll(() =>
        phone
          .locator('[data-testid=chart] tbody tr')
          .evaluateAll((trs) => trs.map((tr) => tr.children[1]?.textContent ?? '')),
      )
      .toEqual(smoothed);
    await checkPage(phone);
    if (shots) await shot(phone, '[data-testid=chart]', 'timeline-measures-390.png');
    await phone.close();
    await page.close();
  }, 120_000);
});

describe('count stories, not copies', () => {
  it('counts stories with exact duplicates merged, a card saying how many copies it stands for', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'client-stories-'));
    const article = (n: number, text: string) => ({
      text,
      title: `Schleusenbericht ${n}`,
      url: `https://schleuse${n}.example.org/a`,
      hostname: `schleuse${n}.example.org`,
      language: 'de',
      warc_date: '2025-04-0' + n + 'T10:00:00',
      warc_record_id: `<urn:uuid:00000000-0000-4000-8000-00000000010${n}>`,
    });
    const copy = 'Der Schleusenwärter Quill öffnete am Morgen das Tor, und drei Frachter fuhren ein.';
    const input = join(dir, 'stories.jsonl');
    await writeFile(
      input,
      [article(1, copy), article(2, copy), article(3, 'Schleusenwärter Quill ging am Abend nach Hause.')]
        .map((a) => JSON.stringify(a))
        .join('\n') + '\n',
    );
    await buildRelease({ inputs: [input], out: join(dir, 'release'), indexVersion: 'stories-a', concurrency: 1 });
    const service = await startService(join(dir, 'release'), 'stories-a');
    try {
      const page = await live.open();
      await page.goto(`${service.url}/?q=${encodeURIComponent('Schleusenwärter AND Quill')}`);
      const heading = page.locator('#query-heading');
      await heading.filter({ hasText: '3 articles match' }).waitFor();
      await page.getByLabel('Count stories, not copies').selectOption('exact');
      await heading.filter({ hasText: /stor/ }).waitFor();
      expect(await heading.textContent()).toBe('2 stories (3 matching articles) match the query');
      expect(new URL(page.url()).searchParams.get('dedupe')).toBe('exact');
      const cards = page.locator('#query-results article.result');
      await expect.poll(() => cards.count()).toBe(2);
      expect(await page.locator('#query-results .copies').allTextContents()).toEqual(['and 1 copy']);
      // The export lists the stories too: one row each, with the story's matching copies.
      const csv = await download(page, () => page.getByRole('button', { name: 'Matching stories (CSV)' }).click());
      expect(csv.name).toBe('news-matching-stories-schleusenwarter-and-quill.csv');
      const [header, ...rows] = parseCsv(csv.bytes.toString('utf8'));
      const col = (n: string) => header!.indexOf(n);
      expect(rows.map((r) => [r[col('export_scope')], r[col('dedupe')], r[col('copies')]])).toEqual([
        ['query_stories', 'exact', '2'],
        ['query_stories', 'exact', '1'],
      ]);
      expect(rows.every((r) => r[col('matching_stories')] === '2' && r[col('matching_articles')] === '3')).toBe(true);
      await checkPage(page);
      // A shared link counts stories at once.
      const again = await live.open();
      await again.goto(page.url());
      await again.locator('#query-heading', { hasText: '2 stories' }).waitFor();
      expect(await again.inputValue('#dedupe')).toBe('exact');
      if (shots) await shot(again, '#query-results', 'stories.png');
      await again.close();
      await page.close();
    } finally {
      await service.close();
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
