import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRelease } from '../src/release/index.ts';
import { post, startStack, useFixtureStack, type FixtureArticle, type Stack } from './gateway-harness.ts';

// Made-up words (no third-party text): a wire story, its exact copy, a copy with 3 of 60 words edited, and another
// story that also mentions oil prices.
const words = (seed: number, n: number): string[] =>
  Array.from({ length: n }, (_, i) => `w${(seed * 7919 + i * 104729) % 99991}`);
const wire = ['Oil', 'prices', ...words(1, 58)];
const edited = wire.map((w, i) => (i % 20 === 7 ? `edit${i}` : w));
const other = ['Oil', 'prices', ...words(2, 58)];
const site = (n: number, warc: string, text: string[]): FixtureArticle => ({
  text: text.join(' ') + '.',
  warc_date: warc,
  url: `https://s${n}.synthetic.example/a`,
  hostname: `s${n}.synthetic.example`,
  title: `SYNTHETIC ${n}`,
});
const ARTICLES = [
  site(1, '2023-12-30T10:00:00', wire),
  site(2, '2024-01-02T10:00:00', wire),
  site(3, '2024-01-03T10:00:00', other),
  site(4, '2024-02-05T10:00:00', edited),
];
const VERSION = 'dedupe-test-1';
const { url } = useFixtureStack(ARTICLES, VERSION);
const search = (body: Record<string, unknown>) =>
  post(url('/api/v2/search'), { index: 'news', query: '"Oil prices"', ...body });

describe('POST /api/v2/search with dedupe', () => {
  it('counts articles without dedupe, as before', async () => {
    const r = await search({});
    expect(r.status).toBe(200);
    expect(r.body.articles).toBe(4);
    expect(r.body.stories).toBeUndefined();
    expect(r.body.page).toHaveLength(4);
  });

  it('counts equal texts once with exact and lists one article per story with its copies', async () => {
    const r = await search({ dedupe: 'exact' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ articles: 4, stories: 3, following: 3 });
    expect(
      r.body.page.map((a: { year: string; doc_ix: number; copies: number }) => [a.year, a.doc_ix, a.copies]),
    ).toEqual([
      ['2023', 0, 2],
      ['2024', 1, 1],
      ['2024', 2, 1],
    ]);
  });

  it('merges the edited copy too with near, across years and months', async () => {
    const r = await search({ dedupe: 'near' });
    expect(r.body).toMatchObject({ articles: 4, stories: 2, following: 2 });
    expect(
      r.body.page.map((a: { year: string; doc_ix: number; copies: number }) => [a.year, a.doc_ix, a.copies]),
    ).toEqual([
      ['2023', 0, 3],
      ['2024', 1, 1],
    ]);
  });

  it('pages through stories with the cursor, never listing a story twice', async () => {
    const first = await search({ dedupe: 'near', page_size: 1 });
    expect(first.body.page).toHaveLength(1);
    const second = await search({ dedupe: 'near', page_size: 1, cursor: first.body.next_cursor });
    expect(second.body).toMatchObject({ stories: 2, following: 1 });
    expect(second.body.page.map((a: { doc_ix: number }) => a.doc_ix)).toEqual([1]);
    expect(second.body.next_cursor).toBeNull();
  });

  it('refuses an unknown dedupe mode with 422', async () => {
    const r = await search({ dedupe: 'fuzzy' });
    expect(r.status).toBe(422);
    expect(JSON.stringify(r.body)).toMatch(/dedupe/);
  });
});

describe('dedupe on a release built without stories', () => {
  let root: string;
  let stack: Stack;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'dedupe-none-'));
    await writeFile(join(root, 'a.jsonl'), ARTICLES.map((a) => JSON.stringify(a)).join('\n') + '\n');
    await buildRelease({
      inputs: [join(root, 'a.jsonl')],
      out: join(root, 'release'),
      indexVersion: 'no-stories-1',
      concurrency: 1,
      stories: false,
    });
    stack = await startStack(join(root, 'release'), 'no-stories-1');
  });
  afterAll(async () => {
    await stack?.close();
    await rm(root, { recursive: true, force: true });
  });

  it('serves plain searches and answers dedupe with 422 stories_unavailable saying to rebuild with stories', async () => {
    const plain = await post(`${stack.gatewayUrl}/api/v2/search`, { index: 'news', query: '"Oil prices"' });
    expect(plain.body.articles).toBe(4);
    const r = await post(`${stack.gatewayUrl}/api/v2/search`, { index: 'news', query: '"Oil prices"', dedupe: 'near' });
    expect(r.status).toBe(422);
    expect(r.body.code).toBe('stories_unavailable');
    expect(r.body.detail).toMatch(/rebuild with stories/);
  });
});
