import { describe, expect, it } from 'vitest';
import { get, post, useFixtureStack, type AnyJson } from './gateway-harness.ts';
import { ARTICLES } from './support/planted-stories.ts';

// Planted copies: the wire story in 2023-12 and 2024-01, its edited copy in 2024-02, another story in 2024-01.
const VERSION = 'copies-test-1';
const { url } = useFixtureStack(ARTICLES, VERSION);
const QUERY = { index: 'news', query: '"Oil prices"' };
const search = (body: Record<string, unknown>) => post(url('/api/v2/search'), { ...QUERY, ...body });
const copies = (body: Record<string, unknown>) =>
  post(url('/api/v2/search/copies'), { ...QUERY, expected_index_version: VERSION, ...body });
const hosts = (page: AnyJson[]) => page.map((c) => c.metadata.hostname as string);

describe('POST /api/v2/search/copies', () => {
  it('lists as many articles as every card of a search counts in copies, with the search page entry among them', async () => {
    const selections = [{}, { year_min: 2024 }, { sources: ['s2.synthetic.example', 's4.synthetic.example'] }];
    let checked = 0;
    for (const dedupe of ['exact', 'near'] as const)
      for (const selection of selections) {
        const s = await search({ dedupe, ...selection });
        expect(s.status).toBe(200);
        for (const entry of s.body.page) {
          const r = await copies({ dedupe, ...selection, story: entry.story });
          expect(r.status).toBe(200);
          expect(r.body.copies).toBe(entry.copies);
          expect(r.body.page).toHaveLength(entry.copies);
          expect(r.body.following).toBe(entry.copies);
          expect(r.body.next_cursor).toBeNull();
          expect(r.body.story_size).toBeGreaterThanOrEqual(entry.copies);
          expect(r.body.page.map((c: AnyJson) => `${c.year}/${c.doc_ix}`)).toContain(`${entry.year}/${entry.doc_ix}`);
          checked++;
        }
      }
    // Not vacuous: exact 3 + near 2 stories unfiltered, 3 + 2 from 2024, 2 + 1 from two sources.
    expect(checked).toBe(13);
  });

  it('gives the outlets, dates, headlines and links of the near story, by date', async () => {
    const s = await search({ dedupe: 'near' });
    const wire = s.body.page.find((e: AnyJson) => e.copies === 3);
    const r = await copies({ dedupe: 'near', story: wire.story });
    expect(hosts(r.body.page)).toEqual(['s1.synthetic.example', 's2.synthetic.example', 's4.synthetic.example']);
    expect(r.body.page.map((c: AnyJson) => c.metadata.title)).toEqual(['SYNTHETIC 1', 'SYNTHETIC 2', 'SYNTHETIC 4']);
    expect(r.body.page.map((c: AnyJson) => c.metadata.url)).toEqual([
      'https://s1.synthetic.example/a',
      'https://s2.synthetic.example/a',
      'https://s4.synthetic.example/a',
    ]);
    const dates = r.body.page.map((c: AnyJson) => c.metadata.date ?? c.metadata.warc_date);
    expect([...dates].sort()).toEqual(dates);
    // The exact story leaves the edited copy out.
    const exact = await copies({ dedupe: 'exact', story: wire.story });
    expect(hosts(exact.body.page)).toEqual(['s1.synthetic.example', 's2.synthetic.example']);
  });

  it('pages with the cursor: one copy a page gives the one-page list, each copy once', async () => {
    const s = await search({ dedupe: 'near' });
    const wire = s.body.page.find((e: AnyJson) => e.copies === 3);
    const whole = await copies({ dedupe: 'near', story: wire.story });
    const paged: AnyJson[] = [];
    let cursor: string | null = null;
    do {
      const r: AnyJson = await copies({ dedupe: 'near', story: wire.story, page_size: 1, cursor });
      expect(r.status).toBe(200);
      expect(r.body.page).toHaveLength(1);
      expect(r.body.following).toBe(3 - paged.length);
      paged.push(...r.body.page);
      cursor = r.body.next_cursor;
    } while (cursor !== null);
    expect(paged).toEqual(whole.body.page);
  });

  it('refuses a story id no article has in the mode with 422 unknown_story', async () => {
    for (const story of [1, 3, 99_999]) {
      // Article 1 (release order) is the second copy of story 0, article 3 the edited one (its own exact story,
      // merged into story 0 with near).
      const r = await copies({ dedupe: story === 3 ? 'near' : 'exact', story });
      expect(r.status).toBe(422);
      expect(r.body.code).toBe('unknown_story');
      expect(r.body.detail).toMatch(/same dedupe/);
    }
  });

  it('refuses a missing or none dedupe, a missing story and a page over 100 with 422 naming the field', async () => {
    for (const [body, field] of [
      [{ story: 0 }, 'dedupe'],
      [{ story: 0, dedupe: 'none' }, 'dedupe'],
      [{ dedupe: 'near' }, 'story'],
      [{ dedupe: 'near', story: -1 }, 'story'],
      [{ dedupe: 'near', story: 0, page_size: 101 }, 'page_size'],
    ] as const) {
      const r = await copies(body);
      expect(r.status).toBe(422);
      expect(JSON.stringify(r.body.detail)).toMatch(field);
    }
    const ok = await copies({ dedupe: 'near', story: 0, page_size: 100 });
    expect(ok.status).toBe(200);
  });

  it('refuses an unknown index, a bad cursor, and a cursor or story of another release with their codes', async () => {
    const unknown = await copies({ dedupe: 'near', story: 0, index: 'nope' });
    expect([unknown.status, unknown.body.code]).toEqual([422, 'unknown_index']);
    const bad = await copies({ dedupe: 'near', story: 0, cursor: 'not-a-cursor' });
    expect([bad.status, bad.body.code]).toEqual([422, 'invalid_query']);
    const first = await copies({ dedupe: 'near', story: 0, page_size: 1 });
    const [, , ...rest] = JSON.parse(Buffer.from(first.body.next_cursor, 'base64url').toString()) as unknown[];
    const other = Buffer.from(JSON.stringify([1, 'another-release', ...rest])).toString('base64url');
    const stale = await copies({ dedupe: 'near', story: 0, cursor: other });
    expect([stale.status, stale.body.code]).toEqual([409, 'stale_index_version']);
    // A story id belongs to one release: another release's is refused before anything is read.
    const swapped = await copies({ dedupe: 'near', story: 0, expected_index_version: 'another-release' });
    expect([swapped.status, swapped.body.code]).toEqual([409, 'stale_index_version']);
    const missing = await post(url('/api/v2/search/copies'), { ...QUERY, dedupe: 'near', story: 0 });
    expect(missing.status).toBe(422);
    expect(JSON.stringify(missing.body.detail)).toMatch(/expected_index_version/);
  });

  it('is documented in /api-docs and /openapi.json with its fields and refusals', async () => {
    const spec = (await get(url('/openapi.json'))).body;
    const op = spec.paths['/api/v2/search/copies'].post;
    expect(Object.keys(op.requestBody.content['application/json'].schema.properties)).toEqual(
      expect.arrayContaining([
        'query',
        'query_tree',
        'dedupe',
        'story',
        'expected_index_version',
        'page_size',
        'cursor',
        'sources',
      ]),
    );
    expect(JSON.stringify(op.responses)).toMatch(/unknown_story/);
    const html = (await get(url('/api-docs'))).text;
    expect(html).toContain('/api/v2/search/copies');
    expect(html).toContain('unknown_story');
  });
});
