import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORES, startService, createEvent, type Service } from './support/harness.ts';

const ZERO = '0000-00-00 00:00:00';

describe.each(STORES)('WordPress post dates, slugs and permalinks ($name)', (factory) => {
  let svc: Service;
  beforeAll(async () => {
    svc = await startService(factory);
  });
  afterAll(() => svc.close());
  const times = (b: Record<string, unknown>) => ({
    date: b.date,
    date_utc: b.date_utc,
    modified: b.modified,
    modified_utc: b.modified_utc,
  });

  it('gives a post created with a date that date as modified too', async () => {
    const e = await createEvent(svc, { title: 'Dated', date: '2016-05-04 03:02:01' });
    expect(times(e)).toEqual({
      date: '2016-05-04 03:02:01',
      date_utc: '2016-05-04 03:02:01',
      modified: '2016-05-04 03:02:01',
      modified_utc: '2016-05-04 03:02:01',
    });
    const v = await svc.post('/venues', { venue: 'Dated venue', date: '2016-05-04 03:02:01' });
    expect(times(v.body)).toEqual(times(e));
  });

  it('keeps drafts and pending posts floating: zero GMT dates, empty event slug, ?p= links', async () => {
    const draft = await createEvent(svc, { title: 'Floating', status: 'draft' });
    expect(times(draft)).toEqual({
      date: '2018-01-10 12:00:00',
      date_utc: ZERO,
      modified: '2018-01-10 12:00:00',
      modified_utc: ZERO,
    });
    expect(draft).toMatchObject({
      slug: '',
      url: `http://wordpress.test/?post_type=tribe_events&p=${draft.id}`,
      website: `http://wordpress.test/?post_type=tribe_events&p=${draft.id}`,
    });
    expect((await svc.get(`/events/${draft.id}`, { as: 'administrator' })).body.json_ld.url).toBe(
      `http://wordpress.test/?post_type=tribe_events&p=${draft.id}%2F/`,
    );
    const venue = await svc.post('/venues', { venue: 'Pending venue', status: 'pending' });
    expect(venue.body).toMatchObject({
      date_utc: ZERO,
      slug: 'pending-venue',
      url: `http://wordpress.test/?post_type=tribe_venue&p=${venue.body.id}`,
    });
  });

  it('dates a draft now when it is published, whatever date the update sends, and names it', async () => {
    const draft = await createEvent(svc, { title: 'Soon public', status: 'draft', date: '2016-01-01 00:00:00' });
    svc.clock.now += 60_000;
    const res = await svc.request('PATCH', `/events/${draft.id}`, {
      json: { status: 'publish', date: '2016-02-02 00:00:00' },
      as: 'administrator',
    });
    expect(times(res.body)).toEqual({
      date: '2018-01-10 12:01:00',
      date_utc: '2018-01-10 12:01:00',
      modified: '2018-01-10 12:01:00',
      modified_utc: '2018-01-10 12:01:00',
    });
    expect(res.body).toMatchObject({ slug: 'soon-public', url: 'http://wordpress.test/event/soon-public/' });
  });

  it('links a scheduled post by ?p= but keeps its slug', async () => {
    const e = await createEvent(svc, { title: 'Later on', status: 'future', date: '2019-01-01 00:00:00' });
    expect(e).toMatchObject({
      status: 'future',
      slug: 'later-on',
      url: `http://wordpress.test/?post_type=tribe_events&p=${e.id}`,
      date_utc: '2019-01-01 00:00:00',
    });
  });
});
