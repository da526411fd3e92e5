import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORES, startService, createEvent, type Service } from './support/harness.ts';

// Category and tag behaviour where WordPress core decides (WP_Tax_Query, wp_update_term), as the kit records it.
describe.each(STORES)('term rules as WordPress core applies them ($name)', (factory) => {
  let svc: Service;
  const cat: Record<string, number> = {};
  beforeAll(async () => {
    svc = await startService(factory);
    cat.culture = (await svc.post('/categories', { name: 'Culture' })).body.id;
    cat.opera = (await svc.post('/categories', { name: 'Opera', parent: cat.culture })).body.id;
    cat.baroque = (await svc.post('/categories', { name: 'Baroque Opera', parent: cat.opera })).body.id;
    cat.food = (await svc.post('/categories', { name: 'Food' })).body.id;
    await createEvent(svc, {
      title: 'deep',
      start_date: '2018-01-13 10:00:00',
      end_date: '2018-01-13 11:00:00',
      categories: [cat.baroque],
    });
    await createEvent(svc, {
      title: 'top',
      start_date: '2018-01-14 10:00:00',
      end_date: '2018-01-14 11:00:00',
      categories: [cat.culture],
    });
    await createEvent(svc, {
      title: 'lunch',
      start_date: '2018-01-15 10:00:00',
      end_date: '2018-01-15 11:00:00',
      categories: [cat.food],
    });
  });
  afterAll(() => svc.close());

  const titles = async (categories: string) =>
    (await svc.get('/events', { query: { categories } })).body.events.map((e: { title: string }) => e.title);

  it('takes the subcategories of a category too, at any depth, as WP_Tax_Query does', async () => {
    expect(await titles('culture')).toEqual(['deep', 'top']);
    expect(await titles(String(cat.opera))).toEqual(['deep']);
    expect(await titles(String(cat.baroque))).toEqual(['deep']);
    expect(await titles(`opera,${cat.food}`)).toEqual(['deep', 'lunch']);
  });

  it('ignores a category made its own parent (200, parent unchanged), as the plugin answers in the conformance kit', async () => {
    const res = await svc.request('PATCH', `/categories/${cat.opera}`, {
      json: { parent: cat.opera },
      as: 'administrator',
    });
    expect(res.status).toBe(200);
    expect(res.body.parent).toBe(cat.culture);
  });
});
