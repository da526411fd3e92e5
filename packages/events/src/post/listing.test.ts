import { describe, expect, it } from 'vitest';
import { pageLinks } from './listing.ts';

const BASE = 'http://site.test/wp-json/tribe/events/v1/events/';
const echoed = [
  ['page', '2'],
  ['per_page', '7'],
  ['start_date', '2032-01-01 00:00:00'],
  ['status', 'publish,private'],
] as const;

describe("pageLinks: the plugin's rest_url and paging links", () => {
  it('echoes rest_url values as they are and builds the links as http_build_query with page last', () => {
    const links = pageLinks(BASE, { echoed }, 2, 3);
    expect(links.rest_url).toBe(`${BASE}?page=2&per_page=7&start_date=2032-01-01 00:00:00&status=publish,private`);
    expect(links.next_rest_url).toBe(
      `${BASE}?per_page=7&start_date=2032-01-01+00%3A00%3A00&status=publish%2Cprivate&page=3`,
    );
    expect(links.previous_rest_url).toBe(
      `${BASE}?per_page=7&start_date=2032-01-01+00%3A00%3A00&status=publish%2Cprivate`,
    );
  });

  it('encodes rest_url when asked, and keeps on the links the filters the plugin drops', () => {
    const links = pageLinks(
      BASE,
      {
        echoed: [
          ['page', '1'],
          ['venue', '4'],
        ],
        kept: [['categories', 'arts,music']],
        encodeRestUrl: true,
      },
      1,
      2,
    );
    expect(links.rest_url).toBe(`${BASE}?page=1&venue=4`);
    expect(links.next_rest_url).toBe(`${BASE}?venue=4&categories=arts%2Cmusic&page=2`);
    expect(links).not.toHaveProperty('previous_rest_url');
  });

  it('has no previous link past the last page and no next link on it', () => {
    expect(pageLinks(BASE, { echoed: [['page', '5']] }, 5, 3)).toEqual({ rest_url: `${BASE}?page=5` });
    expect(pageLinks(BASE, { echoed: [['page', '3']] }, 3, 3).next_rest_url).toBeUndefined();
  });
});
