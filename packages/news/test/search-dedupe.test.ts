import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRelease } from '../src/release/index.ts';
import { post, startStack, useFixtureStack, type Stack } from './gateway-harness.ts';
import { ARTICLES } from './support/planted-stories.ts';

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
    for (const path of ['timeline', 'estimate']) {
      const other = await post(`${stack.gatewayUrl}/api/v2/${path}`, { index: 'news', query: 'Oil', dedupe: 'exact' });
      expect(other.status).toBe(422);
      expect(other.body.code).toBe('stories_unavailable');
    }
    const copies = await post(`${stack.gatewayUrl}/api/v2/search/copies`, {
      index: 'news',
      query: '"Oil prices"',
      dedupe: 'near',
      story: 0,
      expected_index_version: 'no-stories-1',
    });
    expect([copies.status, copies.body.code]).toEqual([422, 'stories_unavailable']);
    const documents = await post(`${stack.gatewayUrl}/api/v2/documents`, {
      index: 'news',
      shard_id: '2024-01',
      rank_from: 0,
      rank_to: 1,
      expected_index_version: 'no-stories-1',
      dedupe: 'near',
    });
    expect(documents.status).toBe(422);
    expect(documents.body.code).toBe('stories_unavailable');
  });
});
