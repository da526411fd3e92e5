import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { openStore, type Store } from '../src/db/index.ts';
import { nextFreeSlug, postRepository } from '../src/post/index.ts';
import { STORES } from './support/harness.ts';

// Issue 25: the next free slug comes from one indexed query when base-2…base-M are all taken, and must be exactly
// WordPress's first free suffix (what reading every taken slug gives) whatever slugs are stored, on both stores.

const post = (slug: string) => ({
  type: 'tribe_events' as const, slug, title: slug, content: '', excerpt: '', status: 'publish', author: 1, password: '',
  date_local: '2020-01-01 00:00:00', date_gmt: '2020-01-01 00:00:00', modified_local: '2020-01-01 00:00:00',
  modified_gmt: '2020-01-01 00:00:00', menu_order: 0,
});

describe.each(STORES)('free slugs ($name)', (factory) => {
  let store: Store;
  let dispose: () => Promise<void>;
  beforeAll(async () => {
    const db = await factory.create();
    dispose = db.dispose;
    store = await openStore(db.url);
  });
  afterAll(async () => { await store.close(); await dispose(); });

  const suffix = fc.oneof(fc.integer({ min: 1, max: 40 }).map(String), fc.constantFrom('0', '02', 'x', '2-3', '99999999999999999999', ''));
  it('equals the first free suffix found by reading every taken slug', async () => {
    const posts = postRepository(store.db);
    await fc.assert(fc.asyncProperty(
      fc.constantFrom('jazz', 'jazz-2', 'a_b', '50%-off', 'x'),
      fc.boolean(),
      fc.uniqueArray(suffix, { maxLength: 25 }),
      async (base, baseTaken, suffixes) => {
        await sql`delete from posts`.execute(store.db);
        const slugs = [...(baseTaken ? [base] : []), ...suffixes.map((s) => (s === '' ? `${base}-` : `${base}-${s}`)), `${base}x-3`, `${base}.1`];
        for (const s of new Set(slugs)) await posts.insert(post(s));
        expect(await posts.freeSlug('tribe_events', base)).toBe(nextFreeSlug(base, new Set(slugs)));
      },
    ), { numRuns: 60 });
  }, 120_000);

  it('ignores the post being renamed, so it keeps its own slug', async () => {
    const posts = postRepository(store.db);
    await sql`delete from posts`.execute(store.db);
    const ids: number[] = [];
    for (const s of ['gig', 'gig-2', 'gig-3']) ids.push(await posts.insert(post(s)));
    expect(await posts.freeSlug('tribe_events', 'gig', ids[0])).toBe('gig');
    expect(await posts.freeSlug('tribe_events', 'gig', ids[2])).toBe('gig-3');
    expect(await posts.freeSlug('tribe_events', 'gig')).toBe('gig-4');
  });
});
