import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { openStore, reusableByIds, type Store } from './index.ts';

describe('reusableByIds', () => {
  let store: Store;
  beforeAll(async () => {
    store = await openStore('sqlite::memory:');
    await store.db
      .insertInto('terms')
      .values(
        Array.from({ length: 80 }, (_, i) => ({
          taxonomy: i % 2 ? ('post_tag' as const) : ('tribe_events_cat' as const),
          name: `Term ${i}`,
          slug: `term-${i}`,
          description: '',
          parent: 0,
        })),
      )
      .execute();
  });
  afterAll(() => store.close());

  it('answers like a freshly compiled query for any ids, list length and fixed parameters around them', async () => {
    const build = (ids: readonly number[]) =>
      store.db
        .selectFrom('terms')
        .select(['id', 'slug'])
        .where('taxonomy', '=', 'post_tag')
        .where('id', 'in', ids)
        .where('parent', '=', 0)
        .orderBy('id');
    const reused = reusableByIds(store.db, build);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: -5, max: 90 }), { minLength: 1, maxLength: 70 }), async (ids) => {
        expect(await reused(ids)).toEqual(await build(ids).execute());
      }),
      { numRuns: 150 },
    );
  });
});
